package hongbao.http;

import hongbao.core.Unavailable;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.function.BiConsumer;
import org.slf4j.MDC;

/**
 * Runs blocking work (the ledger, the slow paths) on virtual threads and completes back on the
 * caller's Vert.x context, so event loops never block and handlers stay single-threaded.
 *
 * <p>The caller's logging context (the request id, see {@link RequestTelemetry}) goes with the work
 * and comes back with its outcome: a line logged by the work, or by the handlers that answer with
 * its result, names the request. Each thread's context is put back as it was afterwards, so an
 * event loop carries no request's id into the next request's work.
 *
 * <p>The work in flight is bounded: virtual threads cost little, but each one holds a request and
 * waits for one of the database pool's few connections, so an overload would otherwise pile up
 * requests that all time out late. Past the bound a call fails at once as {@link Unavailable}
 * (503), which a client retries later.
 */
final class Blocking implements AutoCloseable {

  /** Far above the database pool (tens of connections), far below what would exhaust memory. */
  static final int MAX_IN_FLIGHT = 4_096;

  private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
  private final int maxInFlight;
  private final Semaphore inFlight;

  Blocking() {
    this(MAX_IN_FLIGHT);
  }

  Blocking(int maxInFlight) {
    this.maxInFlight = maxInFlight;
    this.inFlight = new Semaphore(maxInFlight);
  }

  <T> Future<T> call(Context context, Callable<T> work) {
    Promise<T> promise = Promise.promise();
    if (!inFlight.tryAcquire()) {
      promise.fail(overloaded());
      return promise.future();
    }
    Map<String, String> logging = MDC.getCopyOfContextMap();
    threads.execute(() -> withLogging(logging, () -> run(work, context, promise, logging)));
    return promise.future();
  }

  /** The permit goes back before the outcome does, so whoever sees the outcome may call again. */
  private <T> void run(
      Callable<T> work, Context context, Promise<T> promise, Map<String, String> logging) {
    runHeld(
        work,
        (value, failure) ->
            context.runOnContext(
                ignored ->
                    withLogging(
                        logging,
                        () -> {
                          if (failure == null) {
                            promise.complete(value);
                          } else {
                            promise.fail(failure);
                          }
                        })));
  }

  /** Runs {@code work} holding a permit, releases it, then hands the outcome on. */
  private <T> void runHeld(Callable<T> work, BiConsumer<T, Throwable> outcome) {
    T value = null;
    Throwable failure = null;
    try {
      value = work.call();
    } catch (Throwable t) {
      failure = t;
    } finally {
      inFlight.release();
    }
    outcome.accept(value, failure);
  }

  private Unavailable overloaded() {
    return new Unavailable(
        "database", "more than " + maxInFlight + " requests already wait for it", null);
  }

  /**
   * Runs {@code work} on a virtual thread and completes {@code result} with its outcome. No logging
   * context goes with it: its result may be shared by many requests (the readiness check).
   */
  <T> void start(Callable<T> work, CompletableFuture<T> result) {
    if (!inFlight.tryAcquire()) {
      result.completeExceptionally(overloaded());
      return;
    }
    threads.execute(
        () ->
            runHeld(
                work,
                (value, failure) -> {
                  if (failure == null) {
                    result.complete(value);
                  } else {
                    result.completeExceptionally(failure);
                  }
                }));
  }

  /**
   * An executor for the blocking continuation of work that began without blocking (a tap that won):
   * each task runs on a virtual thread under this bound and with the logging context the caller has
   * now. Past the bound {@code execute} throws {@link Unavailable} (503).
   */
  Executor executor() {
    Map<String, String> logging = MDC.getCopyOfContextMap();
    return task -> {
      if (!inFlight.tryAcquire()) {
        throw overloaded();
      }
      threads.execute(
          () ->
              withLogging(
                  logging,
                  () -> {
                    try {
                      task.run();
                    } finally {
                      inFlight.release();
                    }
                  }));
    };
  }

  /**
   * Runs {@code action} with {@code logging} (none when null) as this thread's MDC, then restores
   * it.
   */
  private static void withLogging(Map<String, String> logging, Runnable action) {
    Map<String, String> previous = MDC.getCopyOfContextMap();
    set(logging);
    try {
      action.run();
    } finally {
      set(previous);
    }
  }

  private static void set(Map<String, String> logging) {
    if (logging == null) {
      MDC.clear();
    } else {
      MDC.setContextMap(logging);
    }
  }

  @Override
  public void close() {
    threads.shutdown();
  }
}
