/*
 * An out-of-process TCP delay proxy in C, independent of wg1bench's --rtt line, to validate it
 * where the Python proxy's own cost (two threads per direction under one lock) is of the delay's
 * size: at 0.5 ms and for the many small replies of a JDBC batch.
 *
 *     cc -O2 -o delay-proxy bench/delay-proxy.c
 *     ./delay-proxy LISTEN_PORT UPSTREAM_HOST UPSTREAM_PORT RTT_MS
 *
 * Each connection accepted on 127.0.0.1:LISTEN_PORT is joined to a new connection to the upstream.
 * Every chunk read from either side is stamped with its deadline (the instant it was read plus the
 * one-way delay, RTT_MS / 2) and queued for the other side; chunks are written in order once their
 * deadline has passed. A deadline is fixed on arrival, so pipelined traffic keeps flowing and pays
 * the delay about once, as on a real link; a sleep per chunk would charge it once per packet.
 *
 * One thread, one epoll loop: a timerfd armed (absolute, CLOCK_MONOTONIC, 1 ns timer slack) to the
 * earliest deadline less SPIN_NS, then a spin to the deadline itself, because a timer wakes late
 * by tens of microseconds and more on a busy machine. At RTT_MS 0 bytes still pass through the
 * loop: that is the proxy's own cost, which the bench script measures as a row of its own.
 * Stops on SIGTERM or SIGINT.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define MAX_PAIRS 256
#define CHUNK 65536
#define SPIN_NS 60000L

struct chunk {
  struct chunk *next;
  int64_t due;
  size_t len, off;
  char data[];
};

/* One way of one connection: bytes read from src are written to dst one-way delay later. */
struct way {
  int src, dst;
  struct chunk *head, *tail;
  int src_eof;   /* src has closed: once the queue drains, dst's write side is shut */
  int dst_shut;
};

struct pair {
  int used;
  struct way up, down; /* up: client to server; down: server to client */
};

static struct pair pairs[MAX_PAIRS];
static int64_t delay_ns;
static int ep, tfd;
static volatile sig_atomic_t stop;

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000L + t.tv_nsec;
}

static void on_signal(int s) {
  (void)s;
  stop = 1;
}

/* epoll data: pair index * 2 + side (0 client, 1 server); the listener and the timer apart. */
#define LISTENER (-1L)
#define TIMER (-2L)

static void watch(int fd, long tag, uint32_t events, int op) {
  struct epoll_event e = {.events = events, .data.u64 = (uint64_t)tag};
  epoll_ctl(ep, op, fd, &e);
}

static void close_pair(struct pair *p) {
  struct way *ws[2] = {&p->up, &p->down};
  for (int i = 0; i < 2; i++) {
    struct chunk *c = ws[i]->head;
    while (c) {
      struct chunk *n = c->next;
      free(c);
      c = n;
    }
  }
  close(p->up.src);
  close(p->up.dst);
  memset(p, 0, sizeof *p);
}

/* Writes what is due; returns -1 when the destination failed (the pair is then closed). */
static int flush(struct way *w, int64_t now) {
  while (w->head && w->head->due <= now) {
    struct chunk *c = w->head;
    ssize_t n = send(w->dst, c->data + c->off, c->len - c->off, MSG_NOSIGNAL);
    if (n < 0) {
      return errno == EAGAIN ? 0 : -1; /* a full socket buffer: the next pass tries again */
    }
    c->off += (size_t)n;
    if (c->off < c->len) {
      return 0;
    }
    w->head = c->next;
    if (!w->head) {
      w->tail = NULL;
    }
    free(c);
  }
  if (!w->head && w->src_eof && !w->dst_shut) {
    shutdown(w->dst, SHUT_WR);
    w->dst_shut = 1;
  }
  return 0;
}

/* Reads what src has; returns -1 on a reset (the pair is then closed). */
static int fill(struct way *w, int64_t now) {
  for (;;) {
    struct chunk *c = malloc(sizeof *c + CHUNK);
    ssize_t n = recv(w->src, c->data, CHUNK, MSG_DONTWAIT);
    if (n <= 0) {
      free(c);
      if (n == 0) {
        w->src_eof = 1;
        return 0;
      }
      return errno == EAGAIN ? 0 : -1;
    }
    c->next = NULL;
    c->due = now + delay_ns;
    c->len = (size_t)n;
    c->off = 0;
    if (w->tail) {
      w->tail->next = c;
    } else {
      w->head = c;
    }
    w->tail = c;
  }
}

static int connect_upstream(const char *host, const char *port) {
  struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res;
  if (getaddrinfo(host, port, &hints, &res) != 0) {
    return -1;
  }
  int fd = socket(res->ai_family, SOCK_STREAM, 0);
  if (fd >= 0 && connect(fd, res->ai_addr, res->ai_addrlen) != 0) {
    close(fd);
    fd = -1;
  }
  freeaddrinfo(res);
  return fd;
}

static void accept_one(int lfd, const char *host, const char *port) {
  int c = accept(lfd, NULL, NULL);
  if (c < 0) {
    return;
  }
  int s = connect_upstream(host, port);
  int slot = -1;
  for (int i = 0; i < MAX_PAIRS && slot < 0; i++) {
    if (!pairs[i].used) {
      slot = i;
    }
  }
  if (s < 0 || slot < 0) {
    fprintf(stderr, "delay-proxy: %s\n", s < 0 ? "upstream refused" : "too many connections");
    close(c);
    if (s >= 0) {
      close(s);
    }
    return;
  }
  int one = 1;
  setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  struct pair *p = &pairs[slot];
  p->used = 1;
  p->up.src = c;
  p->up.dst = s;
  p->down.src = s;
  p->down.dst = c;
  watch(c, slot * 2L, EPOLLIN, EPOLL_CTL_ADD);
  watch(s, slot * 2L + 1, EPOLLIN, EPOLL_CTL_ADD);
}

/* Arms the timer to the earliest deadline less the spin; returns that deadline (0: none). */
static int64_t arm(void) {
  int64_t first = 0;
  for (int i = 0; i < MAX_PAIRS; i++) {
    struct way *ws[2] = {&pairs[i].up, &pairs[i].down};
    for (int k = 0; pairs[i].used && k < 2; k++) {
      if (ws[k]->head && (first == 0 || ws[k]->head->due < first)) {
        first = ws[k]->head->due;
      }
    }
  }
  struct itimerspec t = {0};
  if (first) {
    int64_t at = first - SPIN_NS;
    if (at < 1) {
      at = 1;
    }
    t.it_value.tv_sec = at / 1000000000L;
    t.it_value.tv_nsec = at % 1000000000L;
  }
  timerfd_settime(tfd, TFD_TIMER_ABSTIME, &t, NULL);
  return first;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: delay-proxy LISTEN_PORT UPSTREAM_HOST UPSTREAM_PORT RTT_MS\n");
    return 2;
  }
  delay_ns = (int64_t)(atof(argv[4]) * 1e6 / 2);
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  signal(SIGTERM, on_signal);
  signal(SIGINT, on_signal);
  int lfd = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[1]))};
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(lfd, (struct sockaddr *)&a, sizeof a) != 0 || listen(lfd, 64) != 0) {
    perror("delay-proxy: listen");
    return 1;
  }
  ep = epoll_create1(0);
  tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
  watch(lfd, LISTENER, EPOLLIN, EPOLL_CTL_ADD);
  watch(tfd, TIMER, EPOLLIN, EPOLL_CTL_ADD);
  struct epoll_event ev[64];
  while (!stop) {
    int64_t first = arm();
    int n = epoll_wait(ep, ev, 64, -1);
    for (int i = 0; i < n; i++) {
      long tag = (long)ev[i].data.u64;
      if (tag == LISTENER) {
        accept_one(lfd, argv[2], argv[3]);
      } else if (tag == TIMER) {
        uint64_t x;
        ssize_t r = read(tfd, &x, sizeof x);
        (void)r;
        while (first && now_ns() < first) {
          /* the last SPIN_NS before the deadline: a timer alone wakes late */
        }
      } else {
        struct pair *p = &pairs[tag / 2];
        if (p->used && fill(tag % 2 == 0 ? &p->up : &p->down, now_ns()) < 0) {
          close_pair(p);
        }
      }
    }
    int64_t now = now_ns();
    for (int i = 0; i < MAX_PAIRS; i++) {
      struct pair *p = &pairs[i];
      if (!p->used) {
        continue;
      }
      if (flush(&p->up, now) < 0 || flush(&p->down, now) < 0
          || (p->up.dst_shut && p->down.dst_shut)) {
        close_pair(p);
        continue;
      }
      /* a source at its end is no longer watched, or epoll would report it again and again */
      if (p->up.src_eof) {
        epoll_ctl(ep, EPOLL_CTL_DEL, p->up.src, NULL);
      }
      if (p->down.src_eof) {
        epoll_ctl(ep, EPOLL_CTL_DEL, p->down.src, NULL);
      }
    }
  }
  return 0;
}
