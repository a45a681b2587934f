/* What one line costs its sender in the kernel VM when it wakes a waiting reader: written into a
 * pipe whose reader waits in read(2) (how libinput-piped's reader gets libinput's lines, and how
 * a gestured client that asked for a pipe gets its own), sent on a Unix stream socket whose
 * reader waits in recv (a gestured client on the socket), or not sent at all (the sender only
 * sleeps). The sender writes a line every 5 ms, 3 000 times, pinned to vCPU 1 with its reader,
 * and prints its own user and system time per line (getrusage). Under QEMU TCG the wake-up is
 * most of a line's cost; the difference between the rows is what the transport adds.
 *
 * usage (host): cc -O2 -o /tmp/sendcost Tests/VM/sendcost.c
 *               sh Tests/VM/vm-run.sh /var/tmp/gestured-vm /tmp/sendcost
 *        or:    sendcost none|pipe|stream BYTES COUNT   (one row)
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void cpu_ms(double *user, double *system) {
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    *user = r.ru_utime.tv_sec * 1e3 + r.ru_utime.tv_usec / 1e3;
    *system = r.ru_stime.tv_sec * 1e3 + r.ru_stime.tv_usec / 1e3;
}

static int row(const char *mode, int bytes, int count) {
    char line[1024];
    if (bytes < 1 || bytes > (int)sizeof line) { fprintf(stderr, "sendcost: BYTES 1…1024\n"); return 2; }
    memset(line, 'x', bytes);
    line[bytes - 1] = '\n';
    int fds[2] = { -1, -1 };
    int pipe_mode = !strcmp(mode, "pipe"), stream_mode = !strcmp(mode, "stream");
    if (pipe_mode && pipe(fds) != 0) { perror("pipe"); return 1; }
    if (stream_mode && socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) { perror("socketpair"); return 1; }
    if (!pipe_mode && !stream_mode && strcmp(mode, "none")) { fprintf(stderr, "sendcost: none, pipe or stream\n"); return 2; }
    pid_t reader = -1;
    if (fds[0] >= 0) {
        reader = fork();
        if (reader == 0) {
            close(fds[1]);
            char buffer[65536];
            while (read(fds[0], buffer, sizeof buffer) > 0) {}
            _exit(0);
        }
        close(fds[0]);
    }
    struct timespec pause = { 0, 5000000 };
    nanosleep(&pause, 0);
    double user0, system0, user1, system1;
    cpu_ms(&user0, &system0);
    for (int i = 0; i < count; i++) {
        if (pipe_mode && write(fds[1], line, bytes) != bytes) { perror("write"); return 1; }
        if (stream_mode && send(fds[1], line, bytes, MSG_NOSIGNAL) != bytes) { perror("send"); return 1; }
        nanosleep(&pause, 0);
    }
    cpu_ms(&user1, &system1);
    if (fds[1] >= 0) close(fds[1]);
    if (reader > 0) waitpid(reader, 0, 0);
    printf("%-6s %4d bytes: sender user %6.1f us, system %6.1f us a line\n", mode, bytes,
           (user1 - user0) * 1e3 / count, (system1 - system0) * 1e3 / count);
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(1, &one);
    sched_setaffinity(0, sizeof one, &one);   /* the reader, forked later, inherits it */
    if (argc == 4) return row(argv[1], atoi(argv[2]), atoi(argv[3]));
    const char *modes[] = { "none", "pipe", "stream" };
    for (int round = 0; round < 2; round++)
        for (int m = 0; m < 3; m++)
            for (int b = 100; b <= 350; b += 250)
                if (row(modes[m], b, 3000) != 0) return 1;
    return 0;
}
