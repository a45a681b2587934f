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

#include <unistd.h>
#include <sys/syscall.h>
/* read(2), send(2) and epoll_wait(2) as plain system calls. glibc's wrappers are cancellation
   points: in a process with more than one thread, each call turns the thread's asynchronous
   cancellation on and off around the system call (two atomic operations, about 40 instructions
   of the device path's every read, send and wait). gestured never cancels a thread. -1 and
   errno as the wrappers. */
static inline long gestured_read(int fd, void *buf, size_t count) {
    return syscall(SYS_read, fd, buf, count);
}
static inline long gestured_send(int fd, const void *buf, size_t count, int flags) {
    return syscall(SYS_sendto, fd, buf, count, flags, (void *)0, 0);
}
static inline long gestured_write(int fd, const void *buf, size_t count) {
    return syscall(SYS_write, fd, buf, count);
}
static inline int gestured_epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout) {
    return (int)syscall(SYS_epoll_pwait, epfd, events, maxevents, timeout, (void *)0, 8);
}

#include <string.h>
/* A send with one descriptor attached (SCM_RIGHTS): the CMSG_* macros are not callable from
   Swift. -1 and errno as send(2). */
static inline long gestured_send_with_descriptor(int sock, const void *buf, size_t count, int fd, int flags) {
    struct iovec iov = { (void *)buf, count };
    union { char bytes[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
    memset(&control, 0, sizeof control);
    struct msghdr msg = { 0 };
    msg.msg_iov = &iov; msg.msg_iovlen = 1;
    msg.msg_control = control.bytes; msg.msg_controllen = sizeof control.bytes;
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET; c->cmsg_type = SCM_RIGHTS; c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof fd);
    return sendmsg(sock, &msg, flags);
}

/* A receive that also takes a descriptor passed with the bytes (SCM_RIGHTS), close-on-exec
   (MSG_CMSG_CLOEXEC, 0x40000000). *fd is -1 when none came; any further ones are closed. */
static inline long gestured_receive_with_descriptor(int sock, void *buf, size_t count, int *fd) {
    struct iovec iov = { buf, count };
    union { char bytes[CMSG_SPACE(4 * sizeof(int))]; struct cmsghdr align; } control;
    struct msghdr msg = { 0 };
    msg.msg_iov = &iov; msg.msg_iovlen = 1;
    msg.msg_control = control.bytes; msg.msg_controllen = sizeof control.bytes;
    *fd = -1;
    long n = recvmsg(sock, &msg, 0x40000000);
    if (n < 0) return n;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < k; i++) {
            int got; memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof got);
            if (*fd < 0) *fd = got; else close(got);
        }
    }
    return n;
}
