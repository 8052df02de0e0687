package hongbao.http;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.MDC;

/**
 * Runs blocking work (the ledger, the slow paths) on virtual threads and completes back on the
 * caller's Vert.x context, so event loops never block and handlers stay single-threaded.
 *
 * <p>The caller's logging context (the request id, see {@link RequestTelemetry}) goes with the work
 * and comes back with its outcome: a line logged by the work, or by the handlers that answer with
 * its result, names the request. Each thread's context is put back as it was afterwards, so an
 * event loop carries no request's id into the next request's work.
 */
final class Blocking implements AutoCloseable {

  private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

  <T> Future<T> call(Context context, Callable<T> work) {
    Promise<T> promise = Promise.promise();
    Map<String, String> logging = MDC.getCopyOfContextMap();
    threads.execute(
        () ->
            withLogging(
                logging,
                () -> {
                  try {
                    T value = work.call();
                    context.runOnContext(
                        ignored -> withLogging(logging, () -> promise.complete(value)));
                  } catch (Throwable failure) {
                    context.runOnContext(
                        ignored -> withLogging(logging, () -> promise.fail(failure)));
                  }
                }));
    return promise.future();
  }

  /**
   * Runs {@code work} on a virtual thread and completes {@code result} with its outcome. No logging
   * context goes with it: its result may be shared by many requests (the readiness check).
   */
  <T> void start(Callable<T> work, CompletableFuture<T> result) {
    threads.execute(
        () -> {
          try {
            result.complete(work.call());
          } catch (Throwable failure) {
            result.completeExceptionally(failure);
          }
        });
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
