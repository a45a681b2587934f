// Linux system headers the Glibc module map leaves out: epoll, timerfd, signalfd, peer credentials.
#define _GNU_SOURCE 1
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
