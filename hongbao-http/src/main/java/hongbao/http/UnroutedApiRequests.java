package hongbao.http;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import java.util.Set;

/**
 * The last of the API's routes: a request under {@code /api/} that no route took, past
 * authentication like every API request. A path some route takes with other methods answers {@code
 * 405} with an {@code Allow} header naming them; any other path {@code 404}. Without it such a
 * request fell through to the web UI's files, and a method a path does not take was a 404 or a 405
 * depending on which other routes the path happened to pass.
 */
final class UnroutedApiRequests implements Handler<RoutingContext> {

  private final RouteTemplates templates;

  UnroutedApiRequests(RouteTemplates templates) {
    this.templates = templates;
  }

  @Override
  public void handle(RoutingContext ctx) {
    Set<String> allowed = templates.methods(ctx.normalizedPath());
    // A route for this very method that let the request by is no resource of its own.
    if (allowed.isEmpty() || allowed.contains(ctx.request().method().name())) {
      ctx.fail(ApiError.notFound("no such resource"));
      return;
    }
    String names = String.join(", ", allowed);
    ctx.response().putHeader("Allow", names);
    ctx.fail(
        new ApiError(405, "INVALID_REQUEST", "method not allowed here; this path takes " + names));
  }
}
