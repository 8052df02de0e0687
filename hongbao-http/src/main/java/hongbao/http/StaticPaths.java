package hongbao.http;

import io.vertx.ext.web.RoutingContext;
import java.util.Locale;

/**
 * Guards the static handlers (the web UI, the API's browsable description): no file they serve has
 * an encoded {@code /} or {@code \} in its path, and Vert.x's static handler decodes one into a
 * path that can normalize to nothing ({@code /..%2f}), then fails on it with an index error: a 500.
 * Such a path names no file, so it is a 404 before the static handler sees it.
 */
final class StaticPaths {

  private StaticPaths() {}

  /** The route handler, ahead of a static handler on the same path. */
  static void refuseEncodedSeparators(RoutingContext ctx) {
    String path = ctx.request().path().toLowerCase(Locale.ROOT);
    if (path.contains("%2f") || path.contains("%5c")) {
      ctx.fail(404);
      return;
    }
    ctx.next();
  }
}
