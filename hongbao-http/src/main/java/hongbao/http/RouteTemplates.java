package hongbao.http;

import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The router's exact routes as patterns of their paths ({@code /api/v1/packets/:id} matches {@code
 * /api/v1/packets/k3Gx9Q}), read from the router the first time they are asked for, once every
 * route is mounted: to name the route a path belongs to, and to tell which methods it takes.
 */
final class RouteTemplates {

  /** The name of a route that is a step on the way to a resource (a body limit), not one. */
  static final String NO_RESOURCE = "no resource";

  private record Template(String name, Pattern pattern, Set<HttpMethod> methods) {}

  private final Router router;
  private volatile List<Template> templates;

  RouteTemplates(Router router) {
    this.router = router;
  }

  /** The template of the first exact route whose path matches {@code path}; null if none does. */
  String route(String path) {
    for (Template template : templates()) {
      if (template.pattern().matcher(path).matches()) {
        return template.name();
      }
    }
    return null;
  }

  /**
   * The methods that the exact routes matching {@code path} are mounted for, by name, and HEAD
   * wherever GET is ({@link HeadRequests}); empty when none matches. A route for every method is a
   * step every request passes, not a resource.
   */
  Set<String> methods(String path) {
    var names = new TreeSet<String>();
    for (Template template : templates()) {
      if (template.pattern().matcher(path).matches()) {
        template.methods().forEach(method -> names.add(method.name()));
      }
    }
    if (names.contains(HttpMethod.GET.name())) {
      names.add(HttpMethod.HEAD.name());
    }
    return names;
  }

  private List<Template> templates() {
    List<Template> known = templates;
    if (known == null) {
      known =
          router.getRoutes().stream()
              .filter(r -> r.isExactPath() && r.getPath() != null)
              .filter(r -> !NO_RESOURCE.equals(r.getName()))
              .map(
                  r ->
                      new Template(
                          r.getPath(),
                          pattern(r.getPath()),
                          r.methods() == null ? Set.of() : Set.copyOf(r.methods())))
              .toList();
      templates = known;
    }
    return known;
  }

  /**
   * The path with each {@code :name} standing for one segment, and a trailing slash allowed, as the
   * router allows it.
   */
  private static Pattern pattern(String path) {
    return Pattern.compile(Pattern.quote(path).replaceAll(":[A-Za-z]+", "\\\\E[^/]+\\\\Q") + "/?");
  }
}
