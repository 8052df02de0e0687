package hongbao.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.http.HttpServerSettings;
import hongbao.postgres.PostgresConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigTest {

  private static final String SECRET = "a-secret-of-at-least-thirty-two-bytes";

  @Test
  void devMode_listensOnTheLoopbackAddress_unlessHongbaoBindSaysOtherwise() {
    assertThat(Config.from(Map.of()).http().host()).isEqualTo("127.0.0.1");
    assertThat(
            Config.from(Map.of("HONGBAO_JWT_SECRET", SECRET, "HONGBAO_DEV_MODE", "true"))
                .http()
                .host())
        .isEqualTo("127.0.0.1");
    assertThat(
            Config.from(Map.of("HONGBAO_BIND", "0.0.0.0", "HONGBAO_DEV_MODE", "true"))
                .http()
                .host())
        .isEqualTo("0.0.0.0");
    assertThat(Config.from(Map.of("HONGBAO_BIND", "127.0.0.2")).devMode()).isTrue();
  }

  /**
   * A secret that came out blank (an unset reference in a deployment's environment) must not open
   * dev mode, and its admin tokens for anyone, on a public address: that needs asking for.
   */
  @Test
  void devModeOnAnotherAddress_withoutAskingForIt_stopsTheStart() {
    for (Map<String, String> env :
        List.of(
            Map.of("HONGBAO_BIND", "0.0.0.0"),
            Map.of("HONGBAO_BIND", "10.0.0.7", "HONGBAO_JWT_SECRET", " "))) {
      assertThatThrownBy(() -> Config.from(env))
          .as("%s", env)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("HONGBAO_JWT_SECRET")
          .hasMessageContaining("HONGBAO_DEV_MODE=true");
    }
  }

  @Test
  void withoutDevMode_itListensOnEveryInterface_unlessHongbaoBindSaysOtherwise() {
    assertThat(Config.from(Map.of("HONGBAO_JWT_SECRET", SECRET)).http().host())
        .isEqualTo("0.0.0.0");
    assertThat(
            Config.from(Map.of("HONGBAO_JWT_SECRET", SECRET, "HONGBAO_BIND", " 10.0.0.7 "))
                .http()
                .host())
        .isEqualTo("10.0.0.7");
  }

  @Test
  void timeouts_haveDefaults_andAreConfigurable() {
    Config defaults = Config.from(Map.of());
    assertThat(defaults.http())
        .isEqualTo(
            new HttpServerSettings(
                "127.0.0.1",
                Duration.ofSeconds(30),
                Duration.ofSeconds(10),
                Duration.ofSeconds(1),
                false));
    assertThat(defaults.redisTimeout()).isEqualTo(Duration.ofSeconds(3));
    assertThat(defaults.jdbcTimeouts()).isEqualTo(PostgresConfig.Timeouts.DEFAULTS);

    Config set =
        Config.from(
            Map.of(
                "HONGBAO_HTTP_IDLE_TIMEOUT_MILLIS", "5000",
                "HONGBAO_HTTP_BODY_TIMEOUT_MILLIS", "4000",
                "HONGBAO_READY_TIMEOUT_MILLIS", "700",
                "HONGBAO_HTTP2_CLEARTEXT", "TRUE",
                "HONGBAO_REDIS_TIMEOUT_MILLIS", "1500",
                "HONGBAO_JDBC_CONNECT_TIMEOUT_MILLIS", "2000",
                "HONGBAO_JDBC_SOCKET_TIMEOUT_MILLIS", "9000",
                "HONGBAO_JDBC_STATEMENT_TIMEOUT_MILLIS", "8000"));
    assertThat(set.http())
        .isEqualTo(
            new HttpServerSettings(
                "127.0.0.1",
                Duration.ofMillis(5000),
                Duration.ofMillis(4000),
                Duration.ofMillis(700),
                true));
    assertThat(set.redisTimeout()).isEqualTo(Duration.ofMillis(1500));
    assertThat(set.jdbcTimeouts())
        .isEqualTo(
            new PostgresConfig.Timeouts(
                Duration.ofMillis(2000), Duration.ofMillis(9000), Duration.ofMillis(8000)));
  }

  @Test
  void settingsThatCannotWork_failAtStart() {
    assertThatThrownBy(() -> Config.from(Map.of("HONGBAO_HTTP2_CLEARTEXT", "yes")))
        .hasMessageContaining("HONGBAO_HTTP2_CLEARTEXT");
    assertThatThrownBy(() -> Config.from(Map.of("HONGBAO_HTTP_IDLE_TIMEOUT_MILLIS", "0")))
        .hasMessageStartingWith("HONGBAO_HTTP_IDLE_TIMEOUT_MILLIS=0 is out of range");
    assertThatThrownBy(() -> Config.from(Map.of("HONGBAO_JDBC_SOCKET_TIMEOUT_MILLIS", "1000")))
        .hasMessageContaining("statement timeout");
  }

  @Test
  void limits_outOfTheirRange_areRefusedAtStart_namingTheVariableAndTheRange() {
    assertThatThrownBy(() -> Config.from(Map.of("HONGBAO_PAYOUT_BATCH", "6000")))
        .hasMessage("HONGBAO_PAYOUT_BATCH=6000 is out of range: allowed 1..5000 (default 2000)");
    assertThat(Config.from(Map.of("HONGBAO_PAYOUT_BATCH", "5000")).payoutBatch()).isEqualTo(5000);
    assertThatThrownBy(() -> Config.from(Map.of("HONGBAO_MAX_SHARES", "200000")))
        .hasMessage("HONGBAO_MAX_SHARES=200000 is out of range: allowed 1..100000 (default 10000)");
    assertThatThrownBy(() -> Config.from(Map.of("HONGBAO_GRABS_PER_USER_PER_SECOND", "5")))
        .hasMessageStartingWith(
            "HONGBAO_GRABS_PER_USER_PER_SECOND=5 is out of range: allowed 10..");
    assertThatThrownBy(() -> Config.from(Map.of("HONGBAO_SHARDS", "0")))
        .hasMessageStartingWith("HONGBAO_SHARDS=0 is out of range");
    assertThatThrownBy(() -> Config.from(Map.of("HONGBAO_MAX_DELIVERIES", "0")))
        .hasMessageStartingWith("HONGBAO_MAX_DELIVERIES=0 is out of range");
    assertThatThrownBy(() -> Config.from(Map.of("HONGBAO_KEY_GRACE_SECONDS", "-1")))
        .hasMessageStartingWith("HONGBAO_KEY_GRACE_SECONDS=-1 is out of range");
  }

  @Test
  void keyGrace_defaultsToTheGrabStoresOneDefinition() {
    assertThat(Config.from(Map.of()).keyGrace()).isEqualTo(Duration.ofDays(7));
  }
}
