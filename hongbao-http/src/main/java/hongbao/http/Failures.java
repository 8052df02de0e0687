package hongbao.http;

import hongbao.core.RejectedException;
import hongbao.core.Unavailable;
import io.vertx.ext.web.RoutingContext;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns whatever went wrong into an error answer. Rejections and API errors are answers; a
 * dependency that is down is 503 UNAVAILABLE; anything else is a bug, logged with its stack trace
 * here and never shown to the client.
 */
final class Failures {

  private static final Logger LOG = LoggerFactory.getLogger(Failures.class);

  /**
   * Exceptions from the Redis and PostgreSQL clients mean a dependency is unavailable. They are
   * recognised by package so this adapter needs no compile-time knowledge of the others.
   */
  private static final Set<String> DEPENDENCY_PACKAGES =
      Set.of("io.lettuce.", "java.sql.", "org.postgresql.", "com.zaxxer.", "java.net.");

  private Failures() {}

  static ApiError toApiError(Throwable failure, int status) {
    Throwable cause = unwrap(failure);
    if (cause instanceof ApiError api) {
      return api;
    }
    if (cause instanceof RejectedException rejected) {
      return ErrorTable.toApiError(rejected);
    }
    if (cause == null) {
      return switch (status) {
        case 413 -> new ApiError(413, "INVALID_REQUEST", "the body is larger than 16 KiB");
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
    ApiError error = toApiError(ctx.failure(), ctx.statusCode());
    if (ctx.response().ended()) {
      return;
    }
    ctx.response()
        .setStatusCode(error.status())
        .putHeader("content-type", "application/json; charset=utf-8")
        .end(Render.error(error.code(), error.getMessage()).encode());
  }

  private static Throwable unwrap(Throwable failure) {
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

  private static boolean isDependencyFault(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      String name = t.getClass().getName();
      if (DEPENDENCY_PACKAGES.stream().anyMatch(name::startsWith)
          || t instanceof java.util.concurrent.TimeoutException) {
        return true;
      }
    }
    return false;
  }
}
