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
 */
final class JsonBodies implements Handler<RoutingContext> {

  private final BodyHandler bodies;

  JsonBodies(long maxBodyBytes) {
    this.bodies = BodyHandler.create(false).setBodyLimit(maxBodyBytes);
  }

  @Override
  public void handle(RoutingContext ctx) {
    String type = ctx.request().getHeader(HttpHeaders.CONTENT_TYPE);
    if (type != null && isForm(type.strip())) {
      ctx.request().headers().remove(HttpHeaders.CONTENT_TYPE);
    }
    bodies.handle(ctx);
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
