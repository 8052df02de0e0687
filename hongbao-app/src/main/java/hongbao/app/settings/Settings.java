package hongbao.app.settings;

import hongbao.app.DataDir;
import hongbao.core.packet.PacketLimits;
import hongbao.core.split.SplitPolicies;
import hongbao.http.GrabLimiter;
import hongbao.http.HttpServerSettings;
import hongbao.postgres.PostgresConfig;
import hongbao.postgres.PostgresLedger;
import hongbao.redis.RedisKeys;
import hongbao.redis.RedisTimeouts;
import hongbao.redis.grab.RedisGrabStore;
import hongbao.redis.payout.RedisPayoutQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Every {@code HONGBAO_*} variable the service reads, defined once: {@link hongbao.app.Config} and
 * {@link hongbao.app.reward.RewardConfig} read through these, {@code serve --help} prints them, and
 * a test holds the README's table to them. A variable read anywhere else is a drift that test
 * finds.
 */
public final class Settings {

  private static final List<Setting> ALL = new ArrayList<>();

  private static final int DAY_MILLIS = 86_400_000;
  private static final int DAY_SECONDS = 86_400;

  // --- the service -------------------------------------------------------------------------

  public static final IntSetting PORT =
      add(new IntSetting("HONGBAO_PORT", 8080, 0, 65_535, "HTTP port"));

  public static final TextSetting DATA_DIR =
      add(
          new TextSetting(
              "HONGBAO_DATA_DIR",
              DataDir.DEFAULT,
              "./" + DataDir.DEFAULT,
              "a directory",
              "where serve on the embedded default keeps the embedded servers' data, the dev JWT"
                  + " secret and the receipt keys"));

  public static final TextSetting REDIS_URL =
      add(
          TextSetting.of(
              "HONGBAO_REDIS_URL",
              "embedded",
              "redis://host:port[/db], redis-cluster://host:port[,host:port...]",
              "the Redis server or cluster"));

  public static final IntSetting EMBEDDED_REDIS_CLUSTER =
      add(
          new IntSetting(
              "HONGBAO_EMBEDDED_REDIS_CLUSTER",
              0,
              0,
              16,
              "without HONGBAO_REDIS_URL: an embedded cluster of this many masters (0: one Redis)"));

  public static final TextSetting JDBC_URL =
      add(
          TextSetting.of(
              "HONGBAO_JDBC_URL",
              "embedded",
              "jdbc:postgresql://host:port/db?user=...",
              "the PostgreSQL database"));

  public static final TextSetting JDBC_SCHEMA =
      add(
          TextSetting.of(
              "HONGBAO_JDBC_SCHEMA",
              "the connection's default",
              "a schema name",
              "schema to migrate and use"));

  public static final TextSetting JWT_SECRET =
      add(
          TextSetting.of(
              "HONGBAO_JWT_SECRET",
              "random, dev mode on",
              "at least 32 bytes",
              "HS256 secret of the bearer tokens; setting it turns dev mode off"));

  public static final FlagSetting DEV_MODE =
      add(
          new FlagSetting(
              "HONGBAO_DEV_MODE",
              "true without HONGBAO_JWT_SECRET",
              "dev tokens at POST /api/v1/dev/tokens (admin tokens for anyone who asks)"));

  public static final FlagSetting JWT_REQUIRE_EXP =
      add(
          new FlagSetting(
              "HONGBAO_JWT_REQUIRE_EXP",
              "false",
              "refuse bearer tokens without an exp claim (only a new secret withdraws those)"));

  public static final TextSetting SPLIT_POLICY =
      add(
          new TextSetting(
              "HONGBAO_SPLIT_POLICY",
              SplitPolicies.DEFAULT_LUCKY,
              SplitPolicies.DEFAULT_LUCKY,
              String.join(", ", SplitPolicies.names()),
              "how LUCKY and EXCLUSIVE packets are split"));

  public static final IntSetting MAX_SHARES =
      add(
          new IntSetting(
              "HONGBAO_MAX_SHARES",
              PacketLimits.DEFAULTS.maxCount(),
              1,
              PacketLimits.COUNT_CEILING,
              "the largest count a packet may have"));

  public static final IntSetting SHARDS =
      add(
          new IntSetting(
              "HONGBAO_SHARDS",
              1024,
              1,
              RedisKeys.MAX_SHARDS,
              "Redis shard tags {sNNN} (hash slots) packets are spread over"));

  public static final IntSetting GRABS_PER_USER_PER_SECOND =
      add(
          new IntSetting(
              "HONGBAO_GRABS_PER_USER_PER_SECOND",
              20,
              GrabLimiter.MIN_PER_SECOND,
              1_000_000,
              "per-user grab rate limit"));

  public static final IntSetting PAYOUT_WORKERS =
      add(new IntSetting("HONGBAO_PAYOUT_WORKERS", 2, 0, 64, "payout consumers per instance"));

  /**
   * Grabs per ledger transaction: no more than the ledger pays in one call (a larger batch would be
   * refused and paid one grab per transaction) nor the queue hands out in one poll. A poll hands
   * out what is there, up to this, so a larger batch only matters when a backlog waits; then the
   * per-batch costs (a poll over every stream, the ack scripts, a commit) are shared by 2,000 grabs
   * instead of 500 (docs/performance-notes.md, "Payout pipeline"). A batch holds its escrows' locks
   * for its transaction, about 0.1 s.
   */
  public static final IntSetting PAYOUT_BATCH =
      add(
          new IntSetting(
              "HONGBAO_PAYOUT_BATCH",
              2_000,
              1,
              Math.min(PostgresLedger.PAY_BATCH_MAX, RedisPayoutQueue.MAX_BATCH),
              "grabs paid per ledger transaction"));

  public static final IntSetting RECLAIM_IDLE_MILLIS =
      add(
          new IntSetting(
              "HONGBAO_RECLAIM_IDLE_MILLIS",
              30_000,
              1,
              DAY_MILLIS,
              "when another consumer takes over a stalled payout"));

  public static final IntSetting MAX_DELIVERIES =
      add(
          new IntSetting(
              "HONGBAO_MAX_DELIVERIES",
              10,
              1,
              1_000,
              "deliveries before a payout is dead-lettered"));

  public static final IntSetting SWEEP_INTERVAL_MILLIS =
      add(
          new IntSetting(
              "HONGBAO_SWEEP_INTERVAL_MILLIS",
              1_000,
              1,
              DAY_MILLIS,
              "how often expired packets are closed and refunded"));

  public static final IntSetting KEY_GRACE_SECONDS =
      add(
          new IntSetting(
              "HONGBAO_KEY_GRACE_SECONDS",
              Math.toIntExact(RedisGrabStore.DEFAULT_KEY_GRACE.toSeconds()),
              1,
              90 * DAY_SECONDS,
              "how long Redis keeps a packet after its expiry"));

  public static final TextSetting ID_ALPHABET =
      add(
          TextSetting.of(
              "HONGBAO_ID_ALPHABET",
              "the install's own (stored in PostgreSQL)",
              "16+ distinct letters and digits",
              "the shuffled Sqids alphabet packet ids are written in"));

  public static final TextSetting TOKEN_KEYSET =
      add(
          TextSetting.of(
              "HONGBAO_TOKEN_KEYSET",
              "a key kept in HONGBAO_DATA_DIR, else one per run",
              "a Tink JSON keyset, or @file",
              "the keys sealing grab receipts; several keys rotate"));

  public static final TextSetting INSTANCE =
      add(
          new TextSetting(
              "HONGBAO_INSTANCE",
              "hongbao",
              "hongbao",
              "a name",
              "this instance's name in its payout consumers' names"));

  // --- HTTP --------------------------------------------------------------------------------

  public static final TextSetting BIND =
      add(
          TextSetting.of(
              "HONGBAO_BIND",
              HttpServerSettings.LOOPBACK
                  + " in dev mode, else "
                  + HttpServerSettings.EVERY_INTERFACE,
              "an address of this machine",
              "the address HTTP listens on"));

  public static final IntSetting HTTP_IDLE_TIMEOUT_MILLIS =
      add(
          millis(
              "HONGBAO_HTTP_IDLE_TIMEOUT_MILLIS",
              HttpServerSettings.IDLE_TIMEOUT_DEFAULT,
              1,
              "a connection idle this long is closed"));

  public static final IntSetting HTTP_BODY_TIMEOUT_MILLIS =
      add(
          millis(
              "HONGBAO_HTTP_BODY_TIMEOUT_MILLIS",
              HttpServerSettings.BODY_TIMEOUT_DEFAULT,
              1,
              "a body not complete this long after its headers is answered 408"));

  public static final FlagSetting HTTP2_CLEARTEXT =
      add(
          new FlagSetting(
              "HONGBAO_HTTP2_CLEARTEXT", "false", "true offers HTTP/2 without TLS (h2c)"));

  public static final IntSetting READY_TIMEOUT_MILLIS =
      add(
          millis(
              "HONGBAO_READY_TIMEOUT_MILLIS",
              HttpServerSettings.READY_TIMEOUT_DEFAULT,
              1,
              "/ready answers 503 when its check takes longer"));

  public static final TextSetting PUBLIC_URL =
      add(
          TextSetting.of(
              "HONGBAO_PUBLIC_URL",
              "the address the request came to",
              "an http:// or https:// address",
              "where people open the web UI; share links and QR codes use it"));

  public static final TextSetting LOGIN_URL =
      add(
          TextSetting.of(
              "HONGBAO_LOGIN_URL",
              "none",
              "an http:// or https:// address",
              "the operator's sign-in page for the web UI when dev mode is off"));

  // --- timeouts of the stores --------------------------------------------------------------

  public static final IntSetting REDIS_TIMEOUT_MILLIS =
      add(
          millis(
              "HONGBAO_REDIS_TIMEOUT_MILLIS",
              RedisTimeouts.COMMAND_DEFAULT,
              1,
              "how long a Redis command waits for its reply"));

  public static final IntSetting JDBC_CONNECT_TIMEOUT_MILLIS =
      add(
          millis(
              "HONGBAO_JDBC_CONNECT_TIMEOUT_MILLIS",
              PostgresConfig.Timeouts.DEFAULTS.connect(),
              Math.toIntExact(PostgresConfig.Timeouts.CONNECT_MIN.toMillis()),
              "connecting to PostgreSQL, and waiting for a pooled connection"));

  public static final IntSetting JDBC_STATEMENT_TIMEOUT_MILLIS =
      add(
          millis(
              "HONGBAO_JDBC_STATEMENT_TIMEOUT_MILLIS",
              PostgresConfig.Timeouts.DEFAULTS.statement(),
              1,
              "PostgreSQL cancels a statement that runs longer"));

  public static final IntSetting JDBC_SOCKET_TIMEOUT_MILLIS =
      add(
          millis(
              "HONGBAO_JDBC_SOCKET_TIMEOUT_MILLIS",
              PostgresConfig.Timeouts.DEFAULTS.socket(),
              1,
              "the longest wait for any reply; must exceed the statement timeout"));

  // --- the payment gateway -----------------------------------------------------------------

  public static final TextSetting GATEWAY_URL =
      add(
          TextSetting.of(
              "HONGBAO_GATEWAY_URL",
              "the gateway simulator, as a child process (dev mode only)",
              "an http:// or https:// address",
              "the payment gateway withdrawals are paid through"));

  public static final TextSetting GATEWAY_SECRET =
      add(
          TextSetting.of(
              "HONGBAO_GATEWAY_SECRET",
              "random (simulator only)",
              "any text; required with HONGBAO_GATEWAY_URL",
              "HMAC secret shared with the gateway"));

  public static final TextSetting GATEWAY_NOTIFY_URL =
      add(
          TextSetting.of(
              "HONGBAO_GATEWAY_NOTIFY_URL",
              "this instance on loopback for a local gateway, else none",
              "an http:// or https:// address",
              "where the gateway posts its callbacks"));

  /**
   * At most 6 s: a janitor's lease on a withdrawal (15 s) must outlast two gateway calls, each up
   * to this and a second more ({@code HttpGateway.longestCall}), or two janitors would work one.
   */
  public static final IntSetting GATEWAY_TIMEOUT_MILLIS =
      add(
          new IntSetting(
              "HONGBAO_GATEWAY_TIMEOUT_MILLIS",
              5_000,
              1,
              6_000,
              "how long one gateway call may take"));

  // --- the reward pipeline (docs/rewards.md) -----------------------------------------------

  public static final TextSetting KAFKA_BOOTSTRAP =
      add(
          TextSetting.of(
              "HONGBAO_KAFKA_BOOTSTRAP",
              "embedded broker",
              "host:port[,host:port...]",
              "a real Kafka cluster's bootstrap servers"));

  public static final TextSetting REWARD_KEYSET =
      add(
          TextSetting.of(
              "HONGBAO_REWARD_KEYSET",
              "the service's HONGBAO_TOKEN_KEYSET",
              "a Tink JSON keyset",
              "the reward token keys"));

  public static final TextSetting REWARD_QUEUES =
      add(
          TextSetting.of(
              "HONGBAO_REWARD_QUEUES",
              "see docs/rewards.md",
              "NAME=master|backup|percent;...",
              "the reward queues and their failover"));

  public static final IntSetting KAFKA_PARTITIONS =
      add(
          new IntSetting(
              "HONGBAO_KAFKA_PARTITIONS",
              4,
              1,
              10_000,
              "partitions of the reward topics it creates"));

  public static final IntSetting KAFKA_SESSION_TIMEOUT_MILLIS =
      add(
          new IntSetting(
              "HONGBAO_KAFKA_SESSION_TIMEOUT_MILLIS",
              10_000,
              1,
              DAY_MILLIS,
              "how soon a dead consumer's partitions move"));

  public static final IntSetting REWARD_BUDGET_KEYS =
      add(new IntSetting("HONGBAO_REWARD_BUDGET_KEYS", 8, 1, 1_024, "budget keys per campaign"));

  public static final IntSetting REWARD_STREAMS =
      add(
          new IntSetting(
              "HONGBAO_REWARD_STREAMS",
              1,
              1,
              1_024,
              "Redis streams per Redis topic (the same on every instance and SDK)"));

  public static final IntSetting REWARD_IN_FLIGHT =
      add(
          new IntSetting(
              "HONGBAO_REWARD_IN_FLIGHT",
              256,
              1,
              100_000,
              "records a Kafka consumer works on at once"));

  public static final IntSetting REWARD_CONSUME_RATE =
      add(
          new IntSetting(
              "HONGBAO_REWARD_CONSUME_RATE",
              20_000,
              1,
              100_000_000,
              "per-instance consumption rate (events/s)"));

  public static final IntSetting ISSUER_TIMEOUT_MILLIS =
      add(
          new IntSetting(
              "HONGBAO_ISSUER_TIMEOUT_MILLIS",
              2_000,
              1,
              (int) hongbao.core.reward.Issuer.LONGEST_CALL.toMillis(),
              "HTTP issuer timeout"));

  public static final IntSetting REWARD_STUCK_AFTER_SECONDS =
      add(
          new IntSetting(
              "HONGBAO_REWARD_STUCK_AFTER_SECONDS",
              600,
              1,
              30 * DAY_SECONDS,
              "when an accepted, uncredited reward is a discrepancy"));

  /**
   * Its half longer than the 1 s after which an instance reads a scheduled campaign again, so that
   * no instance serves a round by a copy an edit replaced.
   */
  public static final IntSetting CAMPAIGN_EDIT_LEAD_SECONDS =
      add(
          new IntSetting(
              "HONGBAO_CAMPAIGN_EDIT_LEAD_SECONDS",
              60,
              3,
              DAY_SECONDS,
              "how long before its first round a rain campaign can no longer be edited"));

  // --- logs (read by logback.xml and Main) -------------------------------------------------

  public static final TextSetting LOG_FORMAT =
      add(
          new TextSetting(
              "HONGBAO_LOG_FORMAT",
              "text",
              "text",
              "text, json",
              "json writes one JSON object a line"));

  public static final TextSetting ACCESS_LOG =
      add(
          new TextSetting(
              "HONGBAO_ACCESS_LOG",
              "OFF",
              "OFF",
              "OFF, INFO",
              "INFO logs one line per HTTP request with its X-Request-Id"));

  public static final TextSetting DEBUG =
      add(
          TextSetting.of(
              "HONGBAO_DEBUG",
              "unset",
              "set to anything",
              "a setting that stops the start also prints its stack trace"));

  private Settings() {}

  /** Every setting, in the order {@code --help} and the README list them. */
  public static List<Setting> all() {
    return Collections.unmodifiableList(ALL);
  }

  /** The text {@code serve --help} ends with: each variable, its default, its range, its use. */
  public static List<String> help() {
    var lines = new ArrayList<String>();
    for (Setting setting : ALL) {
      lines.add("  " + setting.name());
      lines.add("      default: " + setting.byDefault());
      lines.add("      allowed: " + setting.allowed());
      lines.add("      " + setting.meaning());
    }
    return lines;
  }

  private static IntSetting millis(String name, Duration absent, int min, String meaning) {
    return new IntSetting(name, Math.toIntExact(absent.toMillis()), min, DAY_MILLIS, meaning);
  }

  private static <S extends Setting> S add(S setting) {
    if (ALL.stream().anyMatch(s -> s.name().equals(setting.name()))) {
      throw new IllegalStateException("setting defined twice: " + setting.name());
    }
    ALL.add(setting);
    return setting;
  }
}
