package hongbao.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.app.embedded.EmbeddedPostgresServer;
import hongbao.app.embedded.EmbeddedRedis;
import hongbao.app.support.Api;
import hongbao.kafka.embedded.EmbeddedKafka;
import io.lettuce.core.RedisClient;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded default keeps its data in the data directory (a throwaway one here, never the
 * default): a restart keeps wallets, packets and dev tokens, clearing it starts empty, and a server
 * a killed run left on it is stopped by the next start.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DataDirTest {

  private EmbeddedKafka kafka;

  @BeforeAll
  void startKafka() {
    kafka = EmbeddedKafka.start();
  }

  @AfterAll
  void stopKafka() {
    kafka.close();
  }

  private Hongbao serve(DataDir dataDir) {
    return Hongbao.start(
        Config.from(Map.of("HONGBAO_PORT", "0", "HONGBAO_KAFKA_BOOTSTRAP", kafka.bootstrap())),
        dataDir);
  }

  @Test
  void restart_keepsTheWallet_thePacket_andTheSession(@TempDir Path root) {
    var dataDir = new DataDir(root);
    String token;
    String packetId;
    String receipt;
    try (Hongbao before = serve(dataDir)) {
      Api api = new Api(before.port());
      token = api.token("alice");
      assertThat(api.topUp("alice", 5000).status()).isEqualTo(200);
      packetId = api.sendLucky(token, 1000, 2, 3600);
      receipt = api.grab(token, packetId).json().getString("receipt");
    }

    try (Hongbao after = serve(dataDir)) {
      Api api = new Api(after.port());
      Api.Response wallet = api.get("/api/v1/wallet", token);
      Api.Response packet = api.get("/api/v1/packets/" + packetId, token);

      assertThat(wallet.status()).as(wallet.raw()).isEqualTo(200);
      assertThat(wallet.json().getLong("balance") + wallet.json().getLong("pendingAmount"))
          .as("4000 left after the send, plus alice's own grab")
          .isGreaterThan(4000);
      assertThat(packet.status()).as(packet.raw()).isEqualTo(200);
      assertThat(packet.json().getString("sender")).isEqualTo("alice");
      Api.Response claim =
          api.post(
              "/api/v1/packets/" + packetId + "/claims",
              token,
              Map.of(),
              io.vertx.core.json.JsonObject.of("receipt", receipt).encode());
      assertThat(claim.status()).as("a receipt sealed before the restart opens").isEqualTo(200);
    }
  }

  @Test
  void cleared_startsEmpty_andForgetsTheSessions(@TempDir Path root) {
    var dataDir = new DataDir(root);
    String token;
    try (Hongbao before = serve(dataDir)) {
      Api api = new Api(before.port());
      token = api.token("bob");
      assertThat(api.topUp("bob", 5000).status()).isEqualTo(200);
    }
    dataDir.clear();

    try (Hongbao after = serve(dataDir)) {
      Api api = new Api(after.port());
      assertThat(api.get("/api/v1/wallet", token).status()).isEqualTo(401);
      assertThat(api.get("/api/v1/wallet", api.token("bob")).json().getLong("balance")).isZero();
    }
  }

  @Test
  void aRedisLeftRunning_isStoppedByTheNextStart_whichKeepsItsData(@TempDir Path root) {
    EmbeddedRedis orphan = EmbeddedRedis.startIn(root); // its parent "dies": never closed
    RedisClient client = RedisClient.create(orphan.url());
    try (var connection = client.connect()) {
      connection.sync().set("kept", "yes");
    }
    try (EmbeddedRedis next = EmbeddedRedis.startIn(root)) {
      assertThatThrownBy(() -> client.connect().close()).as("the orphan is gone");
      RedisClient nextClient = RedisClient.create(next.url());
      try (var connection = nextClient.connect()) {
        assertThat(connection.sync().get("kept")).isEqualTo("yes");
      } finally {
        nextClient.shutdown();
      }
    } finally {
      client.shutdown();
    }
  }

  /**
   * Stopping is what the next start does first; the start itself cannot run in this JVM, which
   * still holds the orphan's directory lock (a killed JVM's locks are gone with it).
   */
  @Test
  void aPostgresLeftRunning_isStoppedBeforeTheNextStart(@TempDir Path root) throws Exception {
    EmbeddedPostgresServer orphan = EmbeddedPostgresServer.startIn(root); // never closed
    try (var connection = DriverManager.getConnection(orphan.jdbcUrl())) {
      assertThat(connection.isValid(1)).isTrue();
    }

    EmbeddedPostgresServer.stopLeftOver(root);

    assertThatThrownBy(() -> DriverManager.getConnection(orphan.jdbcUrl()).close())
        .as("the orphan is gone");
    assertThat(root.resolve("postmaster.pid")).doesNotExist();
  }
}
