/* The floor of the side-by-side harness (Tests/VM/sidebyside.py): the least any reader of an
 * evdev node pays per event. It waits in epoll_wait on the node and reads whole batches of
 * input_event until EAGAIN, counting them, and does nothing else: no decoding, no output.
 * gestured, libinput and every other consumer pay at least this for the wake-ups and reads.
 * usage: evdev-floor /dev/input/eventN  (prints the count of events read at SIGTERM) */
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <signal.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <unistd.h>

static volatile sig_atomic_t stop;
static void on_term(int sig) { (void)sig; stop = 1; }

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: evdev-floor /dev/input/eventN\n"); return 2; }
    int fd = open(argv[1], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) { perror(argv[1]); return 1; }
    int ep = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };
    if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) != 0) { perror("epoll"); return 1; }
    struct sigaction sa = { .sa_handler = on_term };
    sigaction(SIGTERM, &sa, NULL);
    struct input_event buf[256];
    unsigned long long events = 0;
    while (!stop) {
        if (epoll_wait(ep, &ev, 1, -1) < 0) { if (errno == EINTR) continue; perror("epoll_wait"); return 1; }
        for (;;) {
            ssize_t n = read(fd, buf, sizeof buf);
            if (n > 0) { events += (unsigned long long)n / sizeof buf[0]; continue; }
            if (n < 0 && errno == EINTR) continue;
            break;
        }
    }
    printf("%llu\n", events);
    return 0;
}
