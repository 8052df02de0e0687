package hongbao.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RouteTemplatesTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  void aPathMatchesItsTemplates_withOrWithoutATrailingSlash() {
    Router router = Router.router(vertx);
    router.get("/api/v1/packets/:id").handler(ctx -> {});
    router.post("/api/v1/packets/:id/grab").handler(ctx -> {});
    router.post("/api/v1/withdrawals").handler(ctx -> {});
    router.get("/api/v1/withdrawals").handler(ctx -> {});
    router.route("/api/*").handler(ctx -> {});
    var templates = new RouteTemplates(router);

    assertThat(templates.route("/api/v1/packets/k3Gx9Q")).isEqualTo("/api/v1/packets/:id");
    assertThat(templates.route("/api/v1/packets/k3Gx9Q/")).isEqualTo("/api/v1/packets/:id");
    assertThat(templates.route("/api/v1/packets/k3Gx9Q/grab"))
        .isEqualTo("/api/v1/packets/:id/grab");
    assertThat(templates.route("/api/v1/packets/a/b")).isNull();
    assertThat(templates.route("/api/v1/packets/")).isNull();
    assertThat(templates.methods("/api/v1/withdrawals/"))
        .as("HEAD wherever GET is")
        .containsExactly("GET", "HEAD", "POST");
    assertThat(templates.methods("/api/v1/nothing"))
        .as("a route for every method is no resource")
        .isEmpty();
  }

  @Test
  void aBodyLimitIsNoResource() {
    Router router = Router.router(vertx);
    router.post("/api/v1/rewards/statement").setName(RouteTemplates.NO_RESOURCE).handler(ctx -> {});
    router.get("/api/v1/wallet").handler(ctx -> {});
    var templates = new RouteTemplates(router);

    assertThat(templates.methods("/api/v1/rewards/statement")).isEmpty();
    assertThat(templates.route("/api/v1/rewards/statement")).isNull();
    assertThat(templates.methods("/api/v1/wallet")).containsExactly("GET", "HEAD");
  }
}
