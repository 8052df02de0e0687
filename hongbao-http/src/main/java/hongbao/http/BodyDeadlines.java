package hongbao.http;

import hongbao.core.Invariants.InvariantViolation;
import io.netty.util.concurrent.FastThreadLocal;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds the time from a request's headers to the end of its body: a request whose body is still
 * incomplete {@code limit} after its headers is answered 408 by {@link Failures#bodyTooSlow} (and
 * its HTTP/1 connection closed). The idle timeout alone lets a client hold a connection forever by
 * sending a byte now and then.
 *
 * <p>A Vert.x timer set and cancelled per request (a task in the event loop's scheduled queue, its
 * cancellation, an end handler) was about 4% of the service's CPU under the hot bench, where nearly
 * every body arrives in the packet after its headers. Instead, each event loop keeps the requests
 * it started in one array and looks at them {@value #SWEEP_MILLIS} ms after the first one joined,
 * then every {@value #SWEEP_MILLIS} ms while any is left: requests whose body or answer is complete
 * leave, overdue ones are answered 408. So a slow body is answered between {@code limit} and {@code
 * limit} + {@value #SWEEP_MILLIS} ms after its headers, a finished request is held for at most that
 * long, and an idle loop sets no timer at all.
 *
 * <p>Loop-confined: every request is started, and every sweep runs, on the event loop that serves
 * the request, so a loop's array is touched by that thread only.
 */
final class BodyDeadlines {

  private static final Logger LOG = LoggerFactory.getLogger(BodyDeadlines.class);

  /** How often a loop with requests in its array looks at them. */
  static final long SWEEP_MILLIS = 10;

  private final Vertx vertx;
  private final Duration limit;
  private final long limitNanos;
  private final FastThreadLocal<Waiting> waiting =
      new FastThreadLocal<>() {
        @Override
        protected Waiting initialValue() {
          return new Waiting();
        }
      };

  BodyDeadlines(Vertx vertx, Duration limit) {
    this.vertx = vertx;
    this.limit = limit;
    this.limitNanos = limit.toNanos();
  }

  /** The route handler, ahead of the body handler. */
  void start(RoutingContext ctx) {
    if (!Context.isOnEventLoopThread()) {
      // The array below is this thread's alone only because requests arrive on event loops.
      throw new InvariantViolation(
          "a request started off an event loop: " + Thread.currentThread());
    }
    if (!ctx.request().isEnded()) {
      Waiting requests = waiting.get();
      requests.add(ctx, System.nanoTime() + limitNanos);
      if (!requests.sweepSet) {
        sweepLater(requests);
      }
    }
    ctx.next();
  }

  /** Requests this thread's loop still holds: for tests. */
  int waitingOnThisLoop() {
    return waiting.get().size;
  }

  private void sweep(Waiting requests) {
    long now = System.nanoTime();
    int kept = 0;
    for (int i = 0; i < requests.size; i++) {
      RoutingContext ctx = (RoutingContext) requests.contexts[i];
      long deadline = requests.deadlines[i];
      requests.contexts[i] = null;
      if (ctx.request().isEnded() || ctx.response().ended() || ctx.response().closed()) {
        continue;
      }
      if (now - deadline >= 0) {
        answerTooSlow(ctx);
        continue;
      }
      requests.contexts[kept] = ctx;
      requests.deadlines[kept] = deadline;
      kept++;
    }
    requests.size = kept;
    requests.sweepSet = false;
    if (kept > 0) {
      sweepLater(requests);
    }
  }

  /** One timer per loop at a time: {@code sweepSet} says whether it is already set. */
  private void sweepLater(Waiting requests) {
    requests.sweepSet = true;
    vertx.setTimer(SWEEP_MILLIS, fired -> sweep(requests));
  }

  /**
   * The 408, kept from the rest of the sweep: a failure answering one request is that request's,
   * logged with its stack, and must not leave the loop's other requests without a deadline.
   */
  private void answerTooSlow(RoutingContext ctx) {
    try {
      Failures.bodyTooSlow(ctx, limit);
    } catch (RuntimeException e) {
      LOG.error("could not answer a request whose body is overdue; closing its connection", e);
      ctx.request().connection().close();
    }
  }

  /** One loop's started requests, in the order they started, and each one's deadline. */
  private static final class Waiting {
    /**
     * RoutingContexts, held as plain objects: a store into an array of an interface type carries a
     * type check, on which the compiler speculates. In a JFR recording of the hot bench that
     * speculation failed once the load was on (five deoptimization events at once, in the route
     * handler that inlines this); with an {@code Object[]} there is nothing to speculate on.
     */
    Object[] contexts = new Object[64];

    long[] deadlines = new long[64];
    int size;
    boolean sweepSet;

    void add(RoutingContext ctx, long deadline) {
      if (size == contexts.length) {
        contexts = Arrays.copyOf(contexts, size * 2);
        deadlines = Arrays.copyOf(deadlines, size * 2);
      }
      contexts[size] = ctx;
      deadlines[size] = deadline;
      size++;
    }
  }
}
