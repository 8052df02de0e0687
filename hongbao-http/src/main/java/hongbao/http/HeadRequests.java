package hongbao.http;

import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;

/**
 * A HEAD request is answered as its GET would be, without the body (RFC 9110 asks it of every
 * general-purpose server; load balancers and {@code curl -I} probe so). It is sent back to the
 * router's start as a GET before any other step, so that each step runs once and every route, its
 * checks and its answer are the GET's. The server keeps the method of the request line for the
 * response: it writes the head and no body, and leaves out {@code Content-Length} (RFC 9110 lets a
 * HEAD's answer omit it; a wrong one it forbids).
 */
final class HeadRequests {

  private HeadRequests() {}

  static void asGet(RoutingContext ctx) {
    String path = ctx.request().path();
    if (path == null || !path.startsWith("/")) {
      ctx.next(); // no path to route (a target like "abc"): refused as any request so is
      return;
    }
    // Path and query as sent (not the URI, which may be in absolute form): the query is read
    // again from what is given here.
    String query = ctx.request().query();
    ctx.reroute(HttpMethod.GET, path + (query == null ? "" : "?" + query));
  }
}
