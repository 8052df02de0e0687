package hongbao.app.support;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.app.Config;
import hongbao.app.Hongbao;
import hongbao.core.reconcile.Reconciliation;
import java.util.HashMap;
import java.util.Map;

/**
 * The real service on real backends for one test class: HTTP on a free port, workers with short
 * timeouts so crashes heal within a test's patience.
 */
public final class TestService implements AutoCloseable {

  private final Hongbao service;
  private final Api api;
  private final Books books;

  private TestService(Hongbao service) {
    this.service = service;
    this.api = new Api(service.port());
    this.books = new Books(service);
  }

  public static TestService start(Backends backends) {
    return start(backends, Map.of(), true);
  }

  public static TestService start(
      Backends backends, Map<String, String> overrides, boolean workers) {
    return start(backends, overrides, workers, null);
  }

  /** As above, with the red-packet rain's rounds on {@code campaignClock} (null: the system's). */
  public static TestService start(
      Backends backends,
      Map<String, String> overrides,
      boolean workers,
      java.time.Clock campaignClock) {
    var env = new HashMap<String, String>();
    env.put("HONGBAO_PORT", "0");
    env.put("HONGBAO_DEV_MODE", "true");
    env.put("HONGBAO_RECLAIM_IDLE_MILLIS", "1000");
    env.put("HONGBAO_SWEEP_INTERVAL_MILLIS", "200");
    env.put("HONGBAO_GRABS_PER_USER_PER_SECOND", "1000");
    // Tests decode ids with the default alphabet; an empty override gives the install's own.
    env.put("HONGBAO_ID_ALPHABET", hongbao.http.PacketIds.DEFAULT_ALPHABET);
    if (backends.gatewayUrl() != null) {
      env.put("HONGBAO_GATEWAY_URL", backends.gatewayUrl());
      env.put("HONGBAO_GATEWAY_SECRET", backends.gatewaySecret());
    }
    env.put("HONGBAO_GATEWAY_TIMEOUT_MILLIS", Integer.toString(Backends.GATEWAY_TIMEOUT_MILLIS));
    if (backends.schema() != null) {
      env.put("HONGBAO_JDBC_SCHEMA", backends.schema());
    }
    env.putAll(overrides);
    Config config = Config.from(env);
    return new TestService(
        Hongbao.start(config, backends.redisUrl(), backends.jdbcUrl(), workers, campaignClock));
  }

  public Api api() {
    return api;
  }

  public Hongbao hongbao() {
    return service;
  }

  public Books books() {
    return books;
  }

  /** The reconciler must find nothing: the closing check of every integration test. */
  public void assertReconciled() {
    Reconciliation result = service.parts().reconciler().reconcile();
    assertThat(result.discrepancies()).as("reconciliation discrepancies").isEmpty();
  }

  /**
   * The closing check for a service started without workers. Other test classes share these
   * backends, and their packets can expire while this one runs: with no sweeper here nothing would
   * close them, and the reconciler would report them. So first do what the sweeper of any running
   * instance does (for tests whose own packets are far from expiry), then check as above.
   */
  public void assertReconciledAfterSweeping() {
    var sweeper = service.parts().sweeper();
    // One batch per pass, until a pass finds nothing expired left open.
    int passes = 0;
    while (passes < 100 && sweeper.sweepOnce() > 0) {
      passes++;
    }
    assertReconciled();
  }

  @Override
  public void close() {
    service.close();
  }
}
