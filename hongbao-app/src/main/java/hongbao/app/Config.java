package hongbao.app;

import hongbao.app.settings.Settings;
import hongbao.http.HttpServerSettings;
import hongbao.http.WebUiSettings;
import hongbao.postgres.PostgresConfig;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Everything the service reads from its environment. With no variables set it runs embedded Redis
 * and PostgreSQL in dev mode; each {@code HONGBAO_*} variable replaces one default. The variables,
 * their defaults and ranges are defined once, in {@link Settings}.
 *
 * @param redisUrl null for an embedded Redis; {@code redis://} one server, {@code
 *     redis-cluster://host:port[,host:port...]} a cluster
 * @param jdbcUrl null for an embedded PostgreSQL
 * @param jdbcSchema the schema to use; null for the connection's default
 * @param jwtSecret null in dev mode (a random secret is made at start)
 * @param tokenKeyset the Tink JSON keyset sealing receipts (or {@code @file}); null: a key per run
 * @param http where to listen and how long to wait for clients. Dev mode mints admin tokens for
 *     anyone who asks, so it listens on the loopback address only, unless {@code HONGBAO_BIND}
 *     names another; otherwise every interface. Dev mode on another address must be asked for
 *     ({@code HONGBAO_DEV_MODE=true}): a secret that came out blank must not open it.
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
    boolean jwtRequireExp,
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

  public static Config fromEnvironment() {
    return from(System.getenv());
  }

  public static Config from(Map<String, String> env) {
    String secret = Settings.JWT_SECRET.read(env);
    Optional<Boolean> askedDevMode = Settings.DEV_MODE.read(env);
    boolean devMode = askedDevMode.orElse(secret == null);
    HttpServerSettings http = http(env, devMode);
    if (askedDevMode.isEmpty() && devMode && !isLoopback(http.host())) {
      throw new IllegalArgumentException(
          "HONGBAO_BIND="
              + http.host()
              + " without HONGBAO_JWT_SECRET: dev mode would mint admin tokens for anyone who"
              + " reaches it; set HONGBAO_JWT_SECRET, or HONGBAO_DEV_MODE=true if that is meant");
    }
    return new Config(
        Settings.PORT.read(env),
        Settings.REDIS_URL.read(env),
        Settings.JDBC_URL.read(env),
        Settings.JDBC_SCHEMA.read(env),
        secret,
        devMode,
        Settings.JWT_REQUIRE_EXP.read(env).orElse(false),
        Settings.SHARDS.read(env),
        Settings.SPLIT_POLICY.read(env),
        Settings.MAX_SHARES.read(env),
        Settings.GRABS_PER_USER_PER_SECOND.read(env),
        Settings.PAYOUT_WORKERS.read(env),
        Settings.PAYOUT_BATCH.read(env),
        Settings.RECLAIM_IDLE_MILLIS.millis(env),
        Settings.MAX_DELIVERIES.read(env),
        Settings.SWEEP_INTERVAL_MILLIS.millis(env),
        Settings.KEY_GRACE_SECONDS.seconds(env),
        // null: the install's own alphabet (see IdAlphabet)
        Settings.ID_ALPHABET.read(env),
        Settings.TOKEN_KEYSET.read(env),
        http,
        new WebUiSettings(Settings.PUBLIC_URL.read(env), Settings.LOGIN_URL.read(env)),
        Settings.REDIS_TIMEOUT_MILLIS.millis(env),
        new PostgresConfig.Timeouts(
            Settings.JDBC_CONNECT_TIMEOUT_MILLIS.millis(env),
            Settings.JDBC_SOCKET_TIMEOUT_MILLIS.millis(env),
            Settings.JDBC_STATEMENT_TIMEOUT_MILLIS.millis(env)),
        Settings.GATEWAY_URL.read(env),
        Settings.GATEWAY_SECRET.read(env),
        Settings.GATEWAY_NOTIFY_URL.read(env),
        Settings.GATEWAY_TIMEOUT_MILLIS.millis(env),
        hongbao.app.reward.RewardConfig.from(env),
        Settings.EMBEDDED_REDIS_CLUSTER.read(env),
        Settings.INSTANCE.read(env));
  }

  private static boolean isLoopback(String host) {
    return host.startsWith("127.") || host.equals("::1") || host.equals("localhost");
  }

  private static HttpServerSettings http(Map<String, String> env, boolean devMode) {
    String bind = Settings.BIND.read(env);
    return new HttpServerSettings(
        bind != null
            ? bind.trim()
            : devMode ? HttpServerSettings.LOOPBACK : HttpServerSettings.EVERY_INTERFACE,
        Settings.HTTP_IDLE_TIMEOUT_MILLIS.millis(env),
        Settings.HTTP_BODY_TIMEOUT_MILLIS.millis(env),
        Settings.READY_TIMEOUT_MILLIS.millis(env),
        Settings.HTTP2_CLEARTEXT.read(env).orElse(false));
  }
}
