package hongbao.http;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * Reads every request's body, as JSON whatever its {@code Content-Type} says. {@code curl -d}, for
 * one, labels a JSON body {@code application/x-www-form-urlencoded}; Vert.x's body handler then
 * decodes it as a form as well, and that decoder failed (a 500) on a {@code %} that starts no
 * escape ({@code "100% luck"}) and on any "field" over 1 KiB. A form or multipart label is taken
 * off the request before the body handler sees it, so that the body is buffered as it came and read
 * as JSON like any other: well-formed JSON is served, anything else is a 400. One handler, not a
 * route of its own before the body handler: every request, grabs included, passes here.
 *
 * <p>The first of these a request meets reads its body, with its limit; a later one (the default
 * limit, after a route's larger one) passes it on, as the body handler does once a body is read.
 */
final class JsonBodies implements Handler<RoutingContext> {

  /** The limit of the handler that read the body, for the 413's message. */
  private static final String LIMIT = "hongbao.bodyLimit";

  private final BodyHandler bodies;
  private final long maxBodyBytes;

  JsonBodies(long maxBodyBytes) {
    this.maxBodyBytes = maxBodyBytes;
    this.bodies = BodyHandler.create(false).setBodyLimit(maxBodyBytes);
  }

  @Override
  public void handle(RoutingContext ctx) {
    if (ctx.get(LIMIT) == null) {
      ctx.put(LIMIT, maxBodyBytes);
      String type = ctx.request().getHeader(HttpHeaders.CONTENT_TYPE);
      if (type != null && isForm(type.strip())) {
        ctx.request().headers().remove(HttpHeaders.CONTENT_TYPE);
      }
    }
    bodies.handle(ctx);
  }

  /** The answer to a body over the limit it was read with. */
  static ApiError tooLarge(RoutingContext ctx) {
    Long limit = ctx.get(LIMIT);
    return new ApiError(
        413,
        "INVALID_REQUEST",
        "the body is larger than "
            + (limit == null ? HttpApi.MAX_BODY_BYTES : limit) / 1024
            + " KiB");
  }

  /** The labels that make the body handler decode a form (it compares them in lower case). */
  private static boolean isForm(String type) {
    return startsWithIgnoringCase(type, "application/x-www-form-urlencoded")
        || startsWithIgnoringCase(type, "multipart/form-data");
  }

  private static boolean startsWithIgnoringCase(String text, String prefix) {
    return text.regionMatches(true, 0, prefix, 0, prefix.length());
  }
}
