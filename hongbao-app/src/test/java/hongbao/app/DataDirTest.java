package hongbao.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import hongbao.app.embedded.EmbeddedKafkaServer;
import hongbao.app.embedded.EmbeddedPostgresServer;
import hongbao.app.embedded.EmbeddedRedis;
import hongbao.app.support.Api;
import hongbao.core.ops.Switch;
import hongbao.kafka.embedded.EmbeddedKafka;
import hongbao.sdk.QueueTopology;
import io.lettuce.core.RedisClient;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded default keeps its data in the data directory (a throwaway one here, never the
 * default): a restart keeps wallets, packets, dev tokens and reward events queued on Kafka,
 * clearing it starts empty, and a server a killed run left on it is stopped by the next start.
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

  /**
   * The gateway simulator standing in for the payment gateway keeps its book in the data directory:
   * after a restart it still knows the withdrawal it paid, so the three-way reconciliation (ledger,
   * withdrawals, gateway) finds nothing missing at the gateway.
   */
  @Test
  void restart_keepsTheGatewaysBook_andAPaidWithdrawalStaysReconciled(@TempDir Path root) {
    var dataDir = new DataDir(root);
    String id;
    try (Hongbao before = serve(dataDir)) {
      Api api = new Api(before.port());
      String token = api.token("carol");
      assertThat(api.topUp("carol", 5000).status()).isEqualTo(200);
      var withdrawal =
          api.post(
              "/api/v1/withdrawals",
              token,
              Map.of("Idempotency-Key", "kept-withdrawal"),
              JsonObject.of("amount", 1200).encode());
      assertThat(withdrawal.status()).as(withdrawal.raw()).isEqualTo(202);
      id = withdrawal.json().getString("id");
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  "SUCCEEDED"
                      .equals(
                          api.get("/api/v1/withdrawals/" + id, token).json().getString("status")));
    }

    try (Hongbao after = serve(dataDir)) {
      Api api = new Api(after.port());
      assertThat(api.get("/api/v1/withdrawals/" + id, api.adminToken()).json().getString("status"))
          .isEqualTo("SUCCEEDED");
      var reconciliation = api.get("/api/v1/admin/reconciliation", api.adminToken());
      assertThat(reconciliation.json().getJsonArray("discrepancies"))
          .as(reconciliation.raw())
          .isEmpty();
      assertThat(reconciliation.json().getBoolean("ok")).isTrue();
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

  /**
   * A reward accepted (202) is owed: its event waits on Kafka while issuing is paused, and the
   * embedded broker's log directory in the data directory carries it across the restart to the
   * consumer of the next run, which credits it once. Ten users, because a fifth of them (by hash)
   * go to the Redis backup first: those were delivered to the first run's consumer, which held them
   * while paused, and the next run (a consumer of another name) takes them over only once they have
   * been idle for the reclaim time; 5 s here instead of the default 30 s, which this test would
   * otherwise wait out.
   */
  @Test
  void restart_keepsRewardsQueuedOnKafka_andTheNextRunCreditsThem(@TempDir Path root) {
    var dataDir = new DataDir(root);
    Config embeddedKafka =
        Config.from(Map.of("HONGBAO_PORT", "0", "HONGBAO_RECLAIM_IDLE_MILLIS", "5000"));
    List<String> users = IntStream.range(0, 10).mapToObj(i -> "kept-" + i).toList();
    try (Hongbao before = Hongbao.start(embeddedKafka, dataDir)) {
      Api api = new Api(before.port());
      String admin = api.adminToken();
      var campaign =
          api.post(
              "/api/v1/admin/reward-campaigns",
              admin,
              Map.of(),
              JsonObject.of("campaignId", "c_kept", "budget", 10_000).encode());
      assertThat(campaign.status()).as(campaign.raw()).isEqualTo(201);
      before.parts().switches().set(Switch.REWARDS, false);
      for (String user : users) {
        var reward =
            api.post(
                "/api/v1/rewards",
                admin,
                Map.of(),
                JsonObject.of(
                        "tradeNo", "kept_" + user,
                        "userId", user,
                        "campaignId", "c_kept",
                        "scene", "rain",
                        "type", "CASH",
                        "amount", 100,
                        "desc", "kept across a restart")
                    .encode());
        assertThat(reward.status()).as(reward.raw()).isEqualTo(202);
      }
      String bootstrap = before.embeddedKafka().bootstrap();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> eventsOn(bootstrap, QueueTopology.defaults()) >= 1);
    }
    assertThat(root.resolve("kafka").resolve(EmbeddedKafka.PID_FILE))
        .as("a clean stop leaves no pid behind")
        .doesNotExist();

    try (Hongbao after = Hongbao.start(embeddedKafka, dataDir)) {
      Api api = new Api(after.port());
      assertThat(eventsOn(after.embeddedKafka().bootstrap(), QueueTopology.defaults()))
          .as("the events are still on their topics")
          .isGreaterThanOrEqualTo(1);
      assertThat(balances(api, users)).as("paused: nothing credited yet").isZero();

      after.parts().switches().set(Switch.REWARDS, true);

      await().atMost(Duration.ofSeconds(60)).until(() -> balances(api, users) == 1_000);
      assertThat(users)
          .allSatisfy(
              user ->
                  assertThat(api.get("/api/v1/wallet", api.token(user)).json().getLong("balance"))
                      .as(user)
                      .isEqualTo(100));
      assertThat(after.parts().reconciler().reconcile().discrepancies()).isEmpty();
    }
  }

  private static long balances(Api api, List<String> users) {
    return users.stream()
        .mapToLong(u -> api.get("/api/v1/wallet", api.token(u)).json().getLong("balance"))
        .sum();
  }

  /** How many events the Kafka topics of {@code topology} have ever held (their end offsets). */
  private static long eventsOn(String bootstrap, QueueTopology topology) {
    List<String> topics = topology.topicsOf(QueueTopology.Kind.KAFKA);
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      var partitions = new HashMap<TopicPartition, OffsetSpec>();
      admin
          .describeTopics(topics)
          .allTopicNames()
          .get(30, TimeUnit.SECONDS)
          .forEach(
              (name, description) ->
                  description
                      .partitions()
                      .forEach(
                          p ->
                              partitions.put(
                                  new TopicPartition(name, p.partition()), OffsetSpec.latest())));
      return admin.listOffsets(partitions).all().get(30, TimeUnit.SECONDS).values().stream()
          .mapToLong(ListOffsetsResult.ListOffsetsResultInfo::offset)
          .sum();
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot read the topics' offsets", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aKafkaLeftRunning_isStoppedByTheNextStart_whichKeepsItsLog(@TempDir Path root) {
    EmbeddedKafka orphan = EmbeddedKafka.startIn(root); // its parent "dies": never closed
    long pid = orphan.pid();
    assertThat(root.resolve(EmbeddedKafka.PID_FILE)).content().contains(Long.toString(pid));

    try (EmbeddedKafka next = EmbeddedKafkaServer.startIn(root)) {
      assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).as("the orphan").isEmpty();
      assertThat(next.alive()).isTrue();
    }
    assertThat(root.resolve("logs").resolve("meta.properties")).as("the log kept").exists();
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
  void keptPostgres_flushesItsCommitsToDisk(@TempDir Path root) throws Exception {
    try (EmbeddedPostgresServer kept = EmbeddedPostgresServer.startIn(root)) {
      assertThat(setting(kept, "fsync")).isEqualTo("on");
      assertThat(setting(kept, "synchronous_commit")).isEqualTo("on");
    }
  }

  private static String setting(EmbeddedPostgresServer server, String name) throws Exception {
    try (var connection = DriverManager.getConnection(server.jdbcUrl());
        var statement = connection.createStatement();
        var result = statement.executeQuery("SHOW " + name)) {
      assertThat(result.next()).isTrue();
      return result.getString(1);
    }
  }

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
