package hongbao.app;

import hongbao.app.embedded.GatewaySimProcess;
import hongbao.core.ops.Switches;
import hongbao.core.withdrawal.Backoff;
import hongbao.core.withdrawal.ForcedCredit;
import hongbao.core.withdrawal.GatewayCallbacks;
import hongbao.core.withdrawal.Settlement;
import hongbao.core.withdrawal.WithdrawalAudit;
import hongbao.core.withdrawal.WithdrawalJanitor;
import hongbao.core.withdrawal.WithdrawalService;
import hongbao.core.withdrawal.WithdrawalTimings;
import hongbao.gateway.GatewaySignature;
import hongbao.gateway.HttpGateway;
import hongbao.gateway.SignedNotices;
import hongbao.http.HttpServerSettings;
import hongbao.postgres.PostgresWithdrawals;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Withdrawals, wired: the gateway (configured, or the simulator as a child process), the request
 * service with its senders, the callbacks, the janitors' parts and the three-way audit.
 *
 * @param url the gateway in use
 * @param secret the secret shared with it
 */
public record WithdrawalParts(
    String url,
    String secret,
    WithdrawalService service,
    GatewayCallbacks callbacks,
    WithdrawalAudit audit,
    PostgresWithdrawals store,
    HttpGateway gateway,
    WithdrawalTimings timings,
    Backoff backoff,
    Clock clock) {

  private static final Logger LOG = LoggerFactory.getLogger(WithdrawalParts.class);

  /** Threads sending fresh withdrawals; more wait in a bounded queue, the rest for the janitor. */
  static final int SENDERS = 16;

  static final int SEND_QUEUE = 10_000;
  static final int JANITOR_BATCH = 50;

  /** How far back reconciliation looks at the gateway's statements, and when pending is stuck. */
  static final int AUDIT_LOOKBACK_DAYS = 1;

  static final Duration STUCK_AFTER = Duration.ofHours(1);

  static WithdrawalParts wire(
      Config config,
      PostgresWithdrawals store,
      Switches switches,
      Clock clock,
      RandomGenerator random,
      Supplier<Integer> servicePort,
      String callbackPath,
      ForcedCredit forcedCredit,
      Path simulatorBook,
      Deque<AutoCloseable> resources) {
    String url = config.gatewayUrl();
    String secret = config.gatewaySecret();
    boolean local = url == null;
    if (local) {
      secret = secret != null ? secret : randomSecret();
      // With kept data its book is kept too: after a restart the service queries the gateway
      // for withdrawals it sent before, and one that forgot them would have them paid again.
      GatewaySimProcess simulator =
          simulatorBook == null
              ? GatewaySimProcess.start(secret, List.of())
              : GatewaySimProcess.start(secret, kept(simulatorBook), List.of());
      resources.push(simulator);
      url = simulator.url();
    }
    WithdrawalTimings timings =
        WithdrawalTimings.DEFAULTS.requireLongerThan(
            HttpGateway.longestCall(config.gatewayTimeout()));
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1));
    resources.push(() -> vertx.close().await());
    var signature = new GatewaySignature(secret);
    String notifyUrl = config.gatewayNotifyUrl();
    boolean callBackHere = notifyUrl == null && (local || isLoopback(url));
    // Listening on every interface includes loopback; a single address is where we are found.
    String here =
        HttpServerSettings.EVERY_INTERFACE.equals(config.http().host())
            ? HttpServerSettings.LOOPBACK
            : config.http().host();
    Supplier<String> notify =
        callBackHere
            ? () -> "http://" + here + ":" + servicePort.get() + callbackPath
            : () -> notifyUrl;
    var gateway =
        new HttpGateway(vertx, URI.create(url), signature, config.gatewayTimeout(), notify);
    resources.push(gateway);
    var backoff = new Backoff(timings, random);
    var settlement = new Settlement(store, gateway, timings, backoff, clock);
    var senders =
        new ThreadPoolExecutor(
            SENDERS,
            SENDERS,
            1,
            TimeUnit.MINUTES,
            new ArrayBlockingQueue<>(SEND_QUEUE),
            Thread.ofPlatform().name("withdrawal-sender-", 0).daemon().factory());
    resources.push(senders::shutdownNow);
    // Seeded from the injected source; its own, as withdrawals are requested on many threads.
    RandomGenerator nonceSource =
        RandomGeneratorFactory.of("L64X128MixRandom").create(random.nextLong());
    LongSupplier nonces =
        () -> {
          synchronized (nonceSource) {
            return nonceSource.nextLong();
          }
        };
    var service =
        new WithdrawalService(
            store, forcedCredit, settlement, senders, switches, timings, clock, nonces);
    LOG.info("withdrawals through the payment gateway at {}{}", url, local ? " (simulator)" : "");
    return new WithdrawalParts(
        url,
        secret,
        service,
        new GatewayCallbacks(new SignedNotices(signature), settlement),
        new WithdrawalAudit(store, gateway, clock, AUDIT_LOOKBACK_DAYS, STUCK_AFTER),
        store,
        gateway,
        timings,
        backoff,
        clock);
  }

  /** A janitor on the service's clock. */
  public WithdrawalJanitor janitor() {
    return janitor(clock);
  }

  /** A janitor whose deadlines run on {@code clock}: tests move time instead of sleeping. */
  public WithdrawalJanitor janitor(Clock clock) {
    var settlement = new Settlement(store, gateway, timings, backoff, clock);
    return new WithdrawalJanitor(store, settlement, backoff, timings, clock, JANITOR_BATCH);
  }

  private static boolean isLoopback(String url) {
    String host = URI.create(url).getHost();
    return host != null && Set.of("127.0.0.1", "localhost", "::1", "[::1]").contains(host);
  }

  private static String randomSecret() {
    byte[] bytes = new byte[24];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** The kept book's folder, made on the first start. */
  private static Path kept(Path book) {
    try {
      Files.createDirectories(book.getParent());
    } catch (IOException e) {
      throw new UncheckedIOException("no folder for the gateway simulator's book " + book, e);
    }
    return book;
  }
}
