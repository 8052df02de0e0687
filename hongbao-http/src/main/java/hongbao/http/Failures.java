package hongbao.http;

import hongbao.core.NotNow;
import hongbao.core.RejectedException;
import hongbao.core.Unavailable;
import io.netty.handler.codec.http.HttpObjectDecoder;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.vertx.core.VertxException;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns whatever went wrong into an error answer. Rejections and API errors are answers; a
 * dependency that is down is 503 UNAVAILABLE; anything else is a bug, logged with its stack trace
 * here and never shown to the client. A client that goes away is none of these: its request is
 * logged in one line, without a stack trace, since thousands of them are what an attack or a flaky
 * network looks like. Nor is a request whose body Netty's decoder could not frame: the client's
 * fault, logged without a stack trace too.
 */
final class Failures {

  private static final Logger LOG = LoggerFactory.getLogger(Failures.class);
  static final String JSON = "application/json; charset=utf-8";

  /**
   * Exceptions from the Redis and PostgreSQL clients mean a dependency is unavailable, but for the
   * answers below. They are recognised by name so this adapter needs no compile-time knowledge of
   * the others.
   */
  private static final Set<String> DEPENDENCY_PACKAGES =
      Set.of("io.lettuce.", "java.sql.", "org.postgresql.", "com.zaxxer.", "java.net.");

  /** Redis's error reply to a command: a bug in the command (a script's error, a wrong type)... */
  private static final String REDIS_ERROR_REPLY = "io.lettuce.core.RedisCommandExecutionException";

  /**
   * ...unless it says it cannot serve now ({@link NotNow}). A transaction rolled back for
   * contention (SQLState class 40) is retried inside the adapter; one that still reaches here is
   * answered "try again" too.
   */
  private static final String POSTGRES_CONTENTION = "40";

  /** Netty's decoder of HTTP/1 requests, whose failures are the client's: {@link #reply}. */
  private static final String HTTP_DECODER = HttpObjectDecoder.class.getName();

  private Failures() {}

  static ApiError toApiError(Throwable failure, int status) {
    Throwable cause = unwrap(failure);
    if (cause instanceof ApiError api) {
      return api;
    }
    if (cause instanceof RejectedException rejected) {
      return ErrorTable.toApiError(rejected);
    }
    if (cause instanceof VertxException && status >= 400 && status < 500) {
      // The router's own refusal of the request (a Host that names no valid authority): the
      // client's, as the status it set says, not a bug.
      LOG.info("request refused by the router: {}", cause.getMessage());
      return new ApiError(status, "INVALID_REQUEST", "bad request: " + cause.getMessage());
    }
    if (cause == null) {
      return switch (status) {
        case 413 -> new ApiError(413, "INVALID_REQUEST", "the body is too large");
        case 404 -> ApiError.notFound("no such resource");
        case 405 -> new ApiError(405, "INVALID_REQUEST", "method not allowed here");
        case 400 -> ApiError.invalid("bad request");
        default ->
            status >= 400 && status < 500
                ? new ApiError(status, "INVALID_REQUEST", "bad request")
                : new ApiError(500, "INTERNAL", "internal error");
      };
    }
    if (cause instanceof Unavailable || isDependencyFault(cause)) {
      LOG.warn("a dependency is unavailable: {}", cause.toString());
      return new ApiError(503, "UNAVAILABLE", "a dependency is unavailable; try again shortly");
    }
    LOG.error("unexpected failure", cause);
    return new ApiError(500, "INTERNAL", "internal error");
  }

  static void reply(RoutingContext ctx) {
    if (unwrap(ctx.failure()) instanceof HttpClosedException) {
      if (!ctx.response().ended()) {
        LOG.info(
            "request aborted: {} {} from {}: the connection closed before the answer",
            ctx.request().method(),
            ctx.request().path(),
            ctx.request().remoteAddress());
      }
      return;
    }
    if (ctx.failure() != null && isRefusedByDecoder(unwrap(ctx.failure()))) {
      LOG.info(
          "malformed request body: {} {} from {}: {}",
          ctx.request().method(),
          ctx.request().path(),
          ctx.request().remoteAddress(),
          String.valueOf(unwrap(ctx.failure())));
      // Vert.x closes the connection on such a failure: there is no one left to answer.
      return;
    }
    ApiError error =
        ctx.failure() == null && ctx.statusCode() == 413
            ? JsonBodies.tooLarge(ctx)
            : toApiError(ctx.failure(), ctx.statusCode());
    if (ctx.response().ended() || ctx.response().closed()) {
      return;
    }
    ctx.response()
        .setStatusCode(error.status())
        .putHeader("content-type", JSON)
        .end(Render.error(error.code(), error.getMessage()).encode());
  }

  /**
   * Answers a request whose head Netty could not decode (a request line over 4 KiB: 414; headers
   * over 8 KiB: 431; anything else: 400) with the API's error body, then closes the connection:
   * what follows on it cannot be trusted to start a request.
   */
  static void invalidRequest(HttpServerRequest request) {
    Throwable cause = request.decoderResult().cause();
    int status;
    String message;
    if (cause instanceof TooLongHttpLineException) {
      status = 414;
      message = "the request line is too long";
    } else if (cause instanceof TooLongHttpHeaderException) {
      status = 431;
      message = "the request headers are too large";
    } else {
      status = 400;
      message = "the request is not valid HTTP";
    }
    // Not logged here: Vert.x reports the same decoder failure to connectionFault as well.
    request
        .response()
        .setStatusCode(status)
        .putHeader("content-type", JSON)
        .end(Render.error("INVALID_REQUEST", message).encode())
        .onComplete(ignored -> request.connection().close());
  }

  /** Answers 408 to a request whose body is overdue and closes its connection. */
  static void bodyTooSlow(RoutingContext ctx, Duration limit) {
    HttpServerRequest request = ctx.request();
    LOG.info(
        "request body too slow: {} {} from {}: not complete after {} ms; closing the connection",
        request.method(),
        request.path(),
        request.remoteAddress(),
        limit.toMillis());
    answerAndClose(ctx, 408, "the request body did not arrive within " + limit.toMillis() + " ms");
  }

  /**
   * Answers {@code status} with an {@code INVALID_REQUEST} body to a request whose body is not (or
   * not all) read, and closes an HTTP/1 connection after it: that connection still expects the rest
   * of the body, so what follows on it cannot be trusted to start a request. An HTTP/2 stream ends
   * alone. The body handler, if one was reading, sees the close after the answer and stays quiet.
   */
  static void answerAndClose(RoutingContext ctx, int status, String message) {
    HttpServerRequest request = ctx.request();
    boolean http1 = request.version() != HttpVersion.HTTP_2;
    HttpServerResponse response =
        ctx.response().setStatusCode(status).putHeader("content-type", JSON);
    if (http1) {
      response.putHeader("connection", "close");
    }
    response
        .end(Render.error("INVALID_REQUEST", message).encode())
        .onComplete(
            ignored -> {
              if (http1) {
                request.connection().close();
              }
            });
  }

  /**
   * A fault on a connection outside any request's handlers: a reset, a TLS or protocol error, a
   * request head that could not be decoded (also answered by {@link #invalidRequest}).
   */
  static void connectionFault(Throwable failure) {
    LOG.info("connection fault: {}", String.valueOf(failure));
  }

  /**
   * Whether Netty's HTTP decoder raised {@code failure} while decoding the bytes of a request
   * already under way: a chunk size that is no hexadecimal number, say. Vert.x hands such a failure
   * raw (a {@code NumberFormatException}) to the request being read and closes the connection; only
   * where it was thrown tells it from a bug of ours, and no handler of ours runs inside the
   * decoder's {@code decode} (the messages it decodes are passed on after it returns).
   */
  static boolean isRefusedByDecoder(Throwable failure) {
    for (StackTraceElement frame : failure.getStackTrace()) {
      if (frame.getClassName().equals(HTTP_DECODER) && frame.getMethodName().equals("decode")) {
        return true;
      }
    }
    return false;
  }

  private static boolean isA(Throwable t, String className) {
    for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
      if (c.getName().equals(className)) {
        return true;
      }
    }
    return false;
  }

  /** The failure itself, out of the completion and execution wrappers around it. */
  static Throwable unwrap(Throwable failure) {
    Throwable current = failure;
    while (current instanceof java.util.concurrent.CompletionException
        || current instanceof java.util.concurrent.ExecutionException) {
      if (current.getCause() == null) {
        break;
      }
      current = current.getCause();
    }
    return current;
  }

  /**
   * Whether the failure is a dependency that cannot serve now (503, try again), rather than a bug
   * that a retry would only repeat (500, logged with its stack trace). Redis's error replies and
   * PostgreSQL's refusals are the dependency's answer to a wrong request: bugs, unless they say
   * "not now".
   */
  private static boolean isDependencyFault(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof Unavailable) {
        return true;
      }
      if (isA(t, REDIS_ERROR_REPLY)) {
        return NotNow.redisReply(t.getMessage());
      }
      if (t instanceof java.sql.SQLException sql && sql.getSQLState() != null) {
        return NotNow.postgresState(sql.getSQLState())
            || sql.getSQLState().startsWith(POSTGRES_CONTENTION);
      }
      String name = t.getClass().getName();
      if (DEPENDENCY_PACKAGES.stream().anyMatch(name::startsWith)
          || t instanceof java.util.concurrent.TimeoutException) {
        return true;
      }
    }
    return false;
  }
}
