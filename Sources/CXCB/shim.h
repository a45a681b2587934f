#include <xcb/xcb.h>
#include <xcb/randr.h>

/* RandR's extension data (present, first event). xcb_randr_id is a variable of an incomplete
   type, which Swift cannot name. */
static inline const xcb_query_extension_reply_t *gestured_xcb_randr_extension(xcb_connection_t *c) {
    return xcb_get_extension_data(c, &xcb_randr_id);
}
