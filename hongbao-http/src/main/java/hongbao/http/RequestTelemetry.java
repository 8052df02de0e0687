package hongbao.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Handler;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The first handler of every request: gives it a request id (the caller's {@code X-Request-Id} when
 * it is a plain token, else a new one), answers it in the same header and puts it in the logging
 * context while the request's handlers run on this thread, and times the request per method, route
 * template and status ({@code hongbao_http_requests_seconds}). Routes are named by their template
 * ({@code /api/v1/packets/:id}), and anything that is not a route of the API is "other", so the
 * number of series stays bounded whatever paths clients invent.
 */
final class RequestTelemetry implements Handler<RoutingContext> {

  private static final Set<String> KNOWN_METHODS =
      Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT");

  static final String HEADER = "X-Request-Id";
  static final String MDC_KEY = "requestId";

  /** The access log: one line per request, off unless its logger is at INFO. */
  private static final Logger ACCESS = LoggerFactory.getLogger("hongbao.access");

  private static final Pattern ACCEPTED_ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");
  private static final Duration[] BUCKETS = {
    Duration.ofMillis(1),
    Duration.ofMillis(5),
    Duration.ofMillis(25),
    Duration.ofMillis(100),
    Duration.ofMillis(250),
    Duration.ofSeconds(1),
    Duration.ofSeconds(5)
  };

  private final MeterRegistry registry;
  private final RouteTemplates templates;
  private final String prefix;
  private final AtomicLong sequence = new AtomicLong();

  /**
   * The timers already registered: building a timer's id and looking it up in the registry cost
   * more than a grab's own work, and the series are few (bounded by routes, methods and statuses).
   */
  private final ConcurrentHashMap<Series, Timer> timers = new ConcurrentHashMap<>();

  private record Series(String method, String route, int status) {}

  /** {@code prefix} sets this instance's ids apart from other instances' (random per start). */
  RequestTelemetry(MeterRegistry registry, RouteTemplates templates, String prefix) {
    this.registry = registry;
    this.templates = templates;
    this.prefix = prefix;
  }

  @Override
  public void handle(RoutingContext ctx) {
    String offered = ctx.request().getHeader(HEADER);
    String id =
        offered != null && ACCEPTED_ID.matcher(offered).matches()
            ? offered
            : prefix + Long.toString(sequence.incrementAndGet(), 36);
    ctx.response().putHeader(HEADER, id);
    long started = System.nanoTime();
    ctx.addEndHandler(ended -> ended(ctx, id, System.nanoTime() - started));
    MDC.put(MDC_KEY, id);
    try {
      ctx.next();
    } finally {
      MDC.remove(MDC_KEY);
    }
  }

  private void ended(RoutingContext ctx, String id, long nanos) {
    String method = series(ctx.request().method().name());
    int status = ctx.response().getStatusCode();
    timers
        .computeIfAbsent(new Series(method, route(ctx), status), this::timer)
        .record(nanos, TimeUnit.NANOSECONDS);
    if (ACCESS.isInfoEnabled()) {
      MDC.put(MDC_KEY, id);
      try {
        ACCESS.info(
            "{} {} {} {} µs",
            method,
            ctx.request().path(),
            status,
            TimeUnit.NANOSECONDS.toMicros(nanos));
      } finally {
        MDC.remove(MDC_KEY);
      }
    }
  }

  /**
   * The method as a series label: a client may send any token as a method, and a label per token
   * would be a timer per request that nobody ever removes.
   */
  static String series(String method) {
    return KNOWN_METHODS.contains(method) ? method : "OTHER";
  }

  private Timer timer(Series series) {
    return Timer.builder("hongbao.http.requests")
        .description("HTTP requests by method, route template and status")
        .tag("method", series.method())
        .tag("route", series.route())
        .tag("status", Integer.toString(series.status()))
        .serviceLevelObjectives(BUCKETS)
        .register(registry);
  }

  private String route(RoutingContext ctx) {
    Route current = ctx.currentRoute();
    if (current != null && current.isExactPath() && current.getPath() != null) {
      return current.getPath();
    }
    if (!UriEscapes.wellFormed(ctx.request().uri())) {
      return "other"; // refused before routing: its path cannot be decoded
    }
    String route = templates.route(ctx.normalizedPath());
    return route == null ? "other" : route;
  }
}
