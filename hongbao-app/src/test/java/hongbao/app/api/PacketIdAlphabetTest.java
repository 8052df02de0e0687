package hongbao.app.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.app.Config;
import hongbao.app.Hongbao;
import hongbao.app.embedded.EmbeddedRedis;
import hongbao.app.support.Api;
import hongbao.app.support.Backends;
import hongbao.app.support.TestService;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Packet ids are not one sequence shared by every install: two fresh installs (each its own Redis
 * and PostgreSQL schema) hand out different first ids, an install's ids still decode after a
 * restart, and production without an alphabet of its own does not start.
 */
class PacketIdAlphabetTest {

  private final List<AutoCloseable> started = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable closeable : started.reversed()) {
      closeable.close();
    }
  }

  /** A fresh install: a Redis and a schema nobody else uses. */
  private Backends freshInstall() {
    EmbeddedRedis redis = EmbeddedRedis.start();
    started.add(redis);
    String schema = "install_" + UUID.randomUUID().toString().replace("-", "");
    return new Backends(schema, redis.url(), Backends.embedded().jdbcUrl(), schema);
  }

  /** The service in dev mode with no alphabet configured: the install's own. */
  private TestService start(Backends install) {
    TestService service = TestService.start(install, Map.of("HONGBAO_ID_ALPHABET", ""), false);
    started.add(service);
    return service;
  }

  private static String sendFirst(Api api) {
    api.topUp("first", 1000);
    return api.sendLucky(api.token("first"), 1000, 1, 3600);
  }

  @Test
  void twoFreshInstalls_handOutDifferentFirstIds() {
    String one = sendFirst(start(freshInstall()).api());
    String two = sendFirst(start(freshInstall()).api());

    assertThat(one).isNotEqualTo(two);
  }

  @Test
  void anInstallsIds_stillDecode_afterARestart() {
    Backends install = freshInstall();
    TestService before = start(install);
    String id = sendFirst(before.api());
    before.close();
    started.remove(before);

    Api after = start(install).api();
    Api.Response details = after.get("/api/v1/packets/" + id, after.token("reader"));

    assertThat(details.status()).as(details.raw()).isEqualTo(200);
    assertThat(details.json().getString("id")).isEqualTo(id);
  }

  @Test
  void production_withoutAnAlphabet_refusesToStart() {
    Backends install = freshInstall();
    Config production =
        Config.from(
            Map.of(
                "HONGBAO_PORT", "0",
                "HONGBAO_JWT_SECRET", "a-production-secret-of-at-least-32-bytes",
                "HONGBAO_JDBC_SCHEMA", install.schema(),
                "HONGBAO_GATEWAY_URL", Backends.embedded().gatewayUrl(),
                "HONGBAO_GATEWAY_SECRET", Backends.embedded().gatewaySecret()));

    assertThat(production.devMode()).isFalse();
    assertThatThrownBy(
            () -> Hongbao.start(production, install.redisUrl(), install.jdbcUrl(), false).close())
        .hasMessageContaining("HONGBAO_ID_ALPHABET");
  }
}
