package hongbao.http;

import io.vertx.ext.web.RoutingContext;

/**
 * Refuses a request whose URI holds a {@code %} that starts no escape of two hex digits ({@code
 * %zz}, a lone {@code %}) with a 400. Vert.x decodes the path to match every route that has one,
 * and Netty a query parameter when a handler reads it; both throw on such an escape, which reached
 * the client as a 500. Runs before any route with a path, so nothing decodes the URI before it.
 */
final class UriEscapes {

  private UriEscapes() {}

  /**
   * The route handler: passes a well-escaped request on, answers any other one and closes its
   * connection, as for a request line that is not valid HTTP: its body is never read, and no body
   * deadline would bound one trickled after the answer.
   */
  static void check(RoutingContext ctx) {
    if (wellFormed(ctx.request().uri())) {
      ctx.next();
      return;
    }
    Failures.answerAndClose(ctx, 400, "the request URI holds a % that starts no escape (%XX, hex)");
  }

  /** Whether every {@code %} of {@code uri} is followed by two ASCII hex digits. */
  static boolean wellFormed(String uri) {
    for (int at = uri.indexOf('%'); at >= 0; at = uri.indexOf('%', at + 3)) {
      if (at + 2 >= uri.length() || !hex(uri.charAt(at + 1)) || !hex(uri.charAt(at + 2))) {
        return false;
      }
    }
    return true;
  }

  private static boolean hex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }
}
