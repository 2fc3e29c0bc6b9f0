/*
 * One frame to many sockets in one call from JavaScript, optionally on several threads.
 *
 * Why native: a block event goes to every subscriber of its channel, one send(2) per socket. From
 * JavaScript each send also paid for a descriptor lookup through the stream handle, argument
 * validation and an exception-based error path; here the loop is the system calls alone, and
 * with threads > 1 the sockets are split between the caller and helper threads so that a block
 * reaches 10,000 subscribers using more than one core.
 *
 * Safety: the call is synchronous. JavaScript is blocked until every thread has joined, so no
 * descriptor in the list can be closed (libuv closes handles on the JS thread) while we write.
 * Sockets are non-blocking (libuv), so a full send buffer returns EAGAIN instead of waiting;
 * MSG_NOSIGNAL turns a reset peer into EPIPE rather than a signal.
 */
#include <errno.h>
#include <node_api.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#define MAX_THREADS 16

typedef struct {
  const int32_t *fds;
  int32_t *out;
  size_t from, to;
  const uint8_t *bytes;
  size_t length;
} slice_t;

static void send_slice(const slice_t *s) {
  for (size_t i = s->from; i < s->to; i++) {
    ssize_t n;
    do n = send(s->fds[i], s->bytes, s->length, MSG_NOSIGNAL | MSG_DONTWAIT);
    while (n < 0 && errno == EINTR);
    s->out[i] = n >= 0 ? (int32_t)n : -errno;
  }
}

static void *send_slice_thread(void *arg) {
  send_slice((const slice_t *)arg);
  return NULL;
}

static int typed_array(napi_env env, napi_value value, napi_typedarray_type want, void **data, size_t *length) {
  napi_typedarray_type type;
  napi_value buffer;
  size_t offset;
  if (napi_get_typedarray_info(env, value, &type, length, data, &buffer, &offset) != napi_ok) return 0;
  return type == want;
}

/* sendAll(fds: Int32Array, count: number, bytes: Uint8Array, out: Int32Array, threads: number): void
 * out[i] = bytes sent to fds[i], or -errno. */
static napi_value send_all(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  int32_t *fds, *out;
  uint8_t *bytes;
  size_t fds_len, out_len, bytes_len;
  uint32_t count, threads;
  if (argc < 5 || !typed_array(env, argv[0], napi_int32_array, (void **)&fds, &fds_len) ||
      napi_get_value_uint32(env, argv[1], &count) != napi_ok ||
      !typed_array(env, argv[2], napi_uint8_array, (void **)&bytes, &bytes_len) ||
      !typed_array(env, argv[3], napi_int32_array, (void **)&out, &out_len) ||
      napi_get_value_uint32(env, argv[4], &threads) != napi_ok || count > fds_len || count > out_len) {
    napi_throw_type_error(env, NULL, "sendAll(fds: Int32Array, count, bytes: Uint8Array, out: Int32Array, threads)");
    return NULL;
  }
  if (threads < 1) threads = 1;
  if (threads > MAX_THREADS) threads = MAX_THREADS;
  if (threads > count) threads = count ? count : 1;
  slice_t slices[MAX_THREADS];
  pthread_t ids[MAX_THREADS];
  int started[MAX_THREADS] = {0};
  for (uint32_t t = 0; t < threads; t++) {
    slices[t] = (slice_t){fds, out, (size_t)count * t / threads, (size_t)count * (t + 1) / threads, bytes, bytes_len};
  }
  for (uint32_t t = 1; t < threads; t++) started[t] = pthread_create(&ids[t], NULL, send_slice_thread, &slices[t]) == 0;
  send_slice(&slices[0]);
  /* A helper that could not start leaves its slice to this thread. */
  for (uint32_t t = 1; t < threads; t++) {
    if (started[t]) pthread_join(ids[t], NULL);
    else send_slice(&slices[t]);
  }
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "sendAll", NAPI_AUTO_LENGTH, send_all, NULL, &fn);
  napi_set_named_property(env, exports, "sendAll", fn);
  return exports;
}
