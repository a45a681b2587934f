// Linux system headers the Glibc module map leaves out: epoll, timerfd, signalfd, peer credentials.
// No _GNU_SOURCE here: it would redefine glibc structs (fd_set) differently from the Glibc module.
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <malloc.h>   /* malloc_trim: hand freed client queues back to the system */

/* accept4 and struct ucred are declared only under _GNU_SOURCE, which must not be defined here
 * (see above); these wrappers give Swift the two calls the socket server needs. */
extern int accept4(int fd, struct sockaddr *addr, socklen_t *addrlen, int flags);

static inline int gestured_accept4(int fd, int flags) {
    return accept4(fd, (struct sockaddr *)0, (socklen_t *)0, flags);
}

/* pipe2 is declared only under _GNU_SOURCE too. Close-on-exec from the start: with pipe() and
 * a later fcntl, a child another thread spawns in between inherits the pipe. */
extern int pipe2(int fds[2], int flags);

static inline int gestured_pipe_cloexec(int fds[2]) {
    return pipe2(fds, 02000000 /* O_CLOEXEC */);
}

/* The peer of a connected Unix socket (SO_PEERCRED, 17 on Linux). */
struct gestured_peer_credentials { int pid; unsigned int uid; unsigned int gid; };

static inline int gestured_peer_credentials(int fd, struct gestured_peer_credentials *out) {
    socklen_t len = sizeof *out;
    return getsockopt(fd, SOL_SOCKET, 17, out, &len);
}

#include <sys/prctl.h>
/* prctl is variadic (Swift cannot call it): make this process the reaper of its orphaned
   descendants, so a hook's background children can be waited for by process group. */
static inline int gestured_become_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

#include <pthread.h>
/* pthread_getattr_np is declared only under _GNU_SOURCE (see the top): the calling thread's
   stack, its lowest address and size. 0, or an errno. */
extern int pthread_getattr_np(pthread_t thread, pthread_attr_t *attr);
static inline int gestured_thread_stack(void **base, size_t *size) {
    pthread_attr_t attr;
    int rc = pthread_getattr_np(pthread_self(), &attr);
    if (rc != 0) return rc;
    rc = pthread_attr_getstack(&attr, base, size);
    pthread_attr_destroy(&attr);
    return rc;
}
