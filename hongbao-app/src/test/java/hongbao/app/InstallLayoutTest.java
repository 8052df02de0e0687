package hongbao.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
 * An install keeps the shard count its Redis data is laid out in: an instance started with another
 * count would look for packets and payout streams where they are not. It does not start; one with
 * the install's count does, and finds its packets.
 */
class InstallLayoutTest {

  private final List<AutoCloseable> started = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable closeable : started.reversed()) {
      closeable.close();
    }
  }

  @Test
  void anotherShardCount_refusesToStart_andTheInstallsOwnCarriesOn() {
    EmbeddedRedis redis = EmbeddedRedis.start();
    started.add(redis);
    String schema = "layout_" + UUID.randomUUID().toString().replace("-", "");
    Backends install = new Backends(schema, redis.url(), Backends.embedded().jdbcUrl(), schema);
    TestService first = TestService.start(install, Map.of("HONGBAO_SHARDS", "16"), false);
    started.add(first);
    Api api = first.api();
    api.topUp("sender", 1000);
    String packet = api.sendLucky(api.token("sender"), 1000, 2, 3600);
    Api.Response grabbed = api.grab(api.token("grabber"), packet);
    assertThat(grabbed.json().getString("outcome")).as(grabbed.raw()).isEqualTo("GRABBED");

    assertThatThrownBy(() -> TestService.start(install, Map.of("HONGBAO_SHARDS", "32"), false))
        .hasStackTraceContaining("HONGBAO_SHARDS=32 differs from the 16 shards");

    TestService again = TestService.start(install, Map.of("HONGBAO_SHARDS", "16"), false);
    started.add(again);
    Api.Response twice = again.api().grab(again.api().token("grabber"), packet);
    assertThat(twice.json().getString("outcome")).as(twice.raw()).isEqualTo("ALREADY_GRABBED");
    again.assertReconciled();
  }
}
