package hongbao.app;

import hongbao.core.packet.PacketLimits;
import hongbao.http.GrabLimiter;
import hongbao.http.HttpServerSettings;
import hongbao.http.WebUiSettings;
import hongbao.postgres.PostgresConfig;
import hongbao.postgres.PostgresLedger;
import hongbao.redis.RedisKeys;
import hongbao.redis.RedisTimeouts;
import hongbao.redis.grab.RedisGrabStore;
import hongbao.redis.payout.RedisPayoutQueue;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Everything the service reads from its environment. With no variables set it runs embedded Redis
 * and PostgreSQL in dev mode; each {@code HONGBAO_*} variable replaces one default.
 *
 * @param redisUrl null for an embedded Redis; {@code redis://} one server, {@code
 *     redis-cluster://host:port[,host:port...]} a cluster
 * @param jdbcUrl null for an embedded PostgreSQL
 * @param jdbcSchema the schema to use; null for the connection's default
 * @param jwtSecret null in dev mode (a random secret is made at start)
 * @param tokenKeyset the Tink JSON keyset sealing receipts (or {@code @file}); null: a key per run
 * @param http where to listen and how long to wait for clients. Dev mode mints admin tokens for
 *     anyone who asks, so it listens on the loopback address only, unless {@code HONGBAO_BIND}
 *     names another; otherwise every interface.
 * @param webUi the web UI's public address and sign-in page ({@code HONGBAO_PUBLIC_URL}, {@code
 *     HONGBAO_LOGIN_URL})
 * @param redisTimeout how long a Redis command may wait for its reply
 * @param jdbcTimeouts how long anything may wait for PostgreSQL
 * @param gatewayUrl the payment gateway; null to run the gateway simulator as a child process
 * @param gatewaySecret the secret shared with the gateway; null for a random one (simulator only)
 * @param gatewayNotifyUrl where the gateway calls back; null for this instance on loopback when the
 *     gateway runs on this machine, and no callbacks otherwise
 * @param gatewayTimeout how long one gateway call may take
 * @param embeddedRedisMasters with no {@code redisUrl}: 0 for one embedded Redis, n for an embedded
 *     cluster of n masters
 * @param instance a name for this instance in its payout consumers' names (a random suffix keeps
 *     instances of one name apart)
 */
public record Config(
    int port,
    String redisUrl,
    String jdbcUrl,
    String jdbcSchema,
    String jwtSecret,
    boolean devMode,
    int shards,
    String splitPolicy,
    int maxShares,
    int grabsPerUserPerSecond,
    int payoutWorkers,
    int payoutBatch,
    Duration reclaimIdle,
    int maxDeliveries,
    Duration sweepInterval,
    Duration keyGrace,
    String idAlphabet,
    String tokenKeyset,
    HttpServerSettings http,
    WebUiSettings webUi,
    Duration redisTimeout,
    PostgresConfig.Timeouts jdbcTimeouts,
    String gatewayUrl,
    String gatewaySecret,
    String gatewayNotifyUrl,
    Duration gatewayTimeout,
    hongbao.app.reward.RewardConfig rewards,
    int embeddedRedisMasters,
    String instance) {

  public static final int DEFAULT_PORT = 8080;

  /**
   * Grabs per ledger transaction: no more than the ledger pays in one call (a larger batch would be
   * refused and paid one grab per transaction) nor the queue hands out in one poll.
   */
  public static final int PAYOUT_BATCH_MAX =
      Math.min(PostgresLedger.PAY_BATCH_MAX, RedisPayoutQueue.MAX_BATCH);

  /**
   * A poll hands out what is there, up to this, so a larger batch only matters when a backlog
   * waits; then the per-batch costs (a poll over every stream, the ack scripts, a commit) are
   * shared by 2,000 grabs instead of 500 (docs/performance-notes.md, "Payout pipeline"). A batch
   * holds its escrows' locks for its transaction, about 0.1 s.
   */
  static final int PAYOUT_BATCH_DEFAULT = 2_000;

  static final int PAYOUT_WORKERS_MAX = 64;
  static final int KEY_GRACE_SECONDS_MAX = 90 * 86_400;
  private static final int DAY_MILLIS = 86_400_000;

  public static Config fromEnvironment() {
    return from(System.getenv());
  }

  public static Config from(Map<String, String> env) {
    String secret = blankToNull(env.get("HONGBAO_JWT_SECRET"));
    boolean devMode =
        Optional.ofNullable(blankToNull(env.get("HONGBAO_DEV_MODE")))
            .map(Boolean::parseBoolean)
            .orElse(secret == null);
    return new Config(
        intIn(env, "HONGBAO_PORT", DEFAULT_PORT, 0, 65_535),
        blankToNull(env.get("HONGBAO_REDIS_URL")),
        blankToNull(env.get("HONGBAO_JDBC_URL")),
        blankToNull(env.get("HONGBAO_JDBC_SCHEMA")),
        secret,
        devMode,
        intIn(env, "HONGBAO_SHARDS", 1024, 1, RedisKeys.MAX_SHARDS),
        env.getOrDefault("HONGBAO_SPLIT_POLICY", "double-mean"),
        intIn(
            env,
            "HONGBAO_MAX_SHARES",
            PacketLimits.DEFAULTS.maxCount(),
            1,
            PacketLimits.COUNT_CEILING),
        intIn(env, "HONGBAO_GRABS_PER_USER_PER_SECOND", 20, GrabLimiter.MIN_PER_SECOND, 1_000_000),
        intIn(env, "HONGBAO_PAYOUT_WORKERS", 2, 0, PAYOUT_WORKERS_MAX),
        intIn(env, "HONGBAO_PAYOUT_BATCH", PAYOUT_BATCH_DEFAULT, 1, PAYOUT_BATCH_MAX),
        Duration.ofMillis(intIn(env, "HONGBAO_RECLAIM_IDLE_MILLIS", 30_000, 1, DAY_MILLIS)),
        intIn(env, "HONGBAO_MAX_DELIVERIES", 10, 1, 1_000),
        Duration.ofMillis(intIn(env, "HONGBAO_SWEEP_INTERVAL_MILLIS", 1_000, 1, DAY_MILLIS)),
        Duration.ofSeconds(
            intIn(
                env,
                "HONGBAO_KEY_GRACE_SECONDS",
                Math.toIntExact(RedisGrabStore.DEFAULT_KEY_GRACE.toSeconds()),
                1,
                KEY_GRACE_SECONDS_MAX)),
        // null: the install's own alphabet (see IdAlphabet)
        blankToNull(env.get("HONGBAO_ID_ALPHABET")),
        blankToNull(env.get("HONGBAO_TOKEN_KEYSET")),
        http(env, devMode),
        WebUiSettings.from(env),
        millisOf(env, "HONGBAO_REDIS_TIMEOUT_MILLIS", RedisTimeouts.COMMAND_DEFAULT),
        jdbcTimeouts(env),
        blankToNull(env.get("HONGBAO_GATEWAY_URL")),
        blankToNull(env.get("HONGBAO_GATEWAY_SECRET")),
        blankToNull(env.get("HONGBAO_GATEWAY_NOTIFY_URL")),
        millisOf(env, "HONGBAO_GATEWAY_TIMEOUT_MILLIS", Duration.ofSeconds(5)),
        hongbao.app.reward.RewardConfig.from(env),
        intIn(env, "HONGBAO_EMBEDDED_REDIS_CLUSTER", 0, 0, 16),
        env.getOrDefault("HONGBAO_INSTANCE", "hongbao"));
  }

  private static HttpServerSettings http(Map<String, String> env, boolean devMode) {
    String bind = blankToNull(env.get("HONGBAO_BIND"));
    return new HttpServerSettings(
        bind != null
            ? bind.trim()
            : devMode ? HttpServerSettings.LOOPBACK : HttpServerSettings.EVERY_INTERFACE,
        millisOf(env, "HONGBAO_HTTP_IDLE_TIMEOUT_MILLIS", HttpServerSettings.IDLE_TIMEOUT_DEFAULT),
        millisOf(env, "HONGBAO_HTTP_BODY_TIMEOUT_MILLIS", HttpServerSettings.BODY_TIMEOUT_DEFAULT),
        millisOf(env, "HONGBAO_READY_TIMEOUT_MILLIS", HttpServerSettings.READY_TIMEOUT_DEFAULT),
        booleanOf(env, "HONGBAO_HTTP2_CLEARTEXT", false));
  }

  private static PostgresConfig.Timeouts jdbcTimeouts(Map<String, String> env) {
    PostgresConfig.Timeouts defaults = PostgresConfig.Timeouts.DEFAULTS;
    return new PostgresConfig.Timeouts(
        millisOf(env, "HONGBAO_JDBC_CONNECT_TIMEOUT_MILLIS", defaults.connect()),
        millisOf(env, "HONGBAO_JDBC_SOCKET_TIMEOUT_MILLIS", defaults.socket()),
        millisOf(env, "HONGBAO_JDBC_STATEMENT_TIMEOUT_MILLIS", defaults.statement()));
  }

  private static Duration millisOf(Map<String, String> env, String name, Duration absent) {
    return Duration.ofMillis(intOf(env, name, Math.toIntExact(absent.toMillis())));
  }

  private static boolean booleanOf(Map<String, String> env, String name, boolean absent) {
    String text = blankToNull(env.get(name));
    if (text == null) {
      return absent;
    }
    return switch (text.trim().toLowerCase(java.util.Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new IllegalArgumentException(name + " must be true or false, not '" + text + "'");
    };
  }

  private static int intOf(Map<String, String> env, String name, int absent) {
    String text = blankToNull(env.get(name));
    if (text == null) {
      return absent;
    }
    try {
      return Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be an integer, not '" + text + "'", e);
    }
  }

  /**
   * An integer setting within its allowed range; anything else stops the start with one line that
   * names the variable, the value and the range, never a silently different setting.
   */
  private static int intIn(Map<String, String> env, String name, int absent, int min, int max) {
    int value = intOf(env, name, absent);
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          "%s=%d is out of range: allowed %d..%d (default %d)"
              .formatted(name, value, min, max, absent));
    }
    return value;
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
