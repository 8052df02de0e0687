package hongbao.http;

import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import java.util.Locale;

/**
 * Every body this API takes is JSON, whatever its {@code Content-Type} says. {@code curl -d}, for
 * one, labels a JSON body {@code application/x-www-form-urlencoded}; Vert.x's body handler then
 * decodes it as a form as well, and that decoder failed (a 500) on a {@code %} that starts no
 * escape ({@code "100% luck"}) and on any "field" over 1 KiB. This handler, placed before the body
 * handler, takes a form or multipart label off the request, so that the body is buffered as it came
 * and read as JSON like any other: well-formed JSON is served, anything else is a 400.
 */
final class JsonBodies {

  private JsonBodies() {}

  static void start(RoutingContext ctx) {
    String type = ctx.request().getHeader(HttpHeaders.CONTENT_TYPE);
    if (type != null && isForm(type)) {
      ctx.request().headers().remove(HttpHeaders.CONTENT_TYPE);
    }
    ctx.next();
  }

  /** The labels that make the body handler decode a form (it compares them in lower case). */
  static boolean isForm(String contentType) {
    String type = contentType.trim().toLowerCase(Locale.ROOT);
    return type.startsWith("application/x-www-form-urlencoded")
        || type.startsWith("multipart/form-data");
  }
}
