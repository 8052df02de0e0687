package hongbao.http;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Runs blocking work (the ledger, the slow paths) on virtual threads and completes back on the
 * caller's Vert.x context, so event loops never block and handlers stay single-threaded.
 */
final class Blocking implements AutoCloseable {

  private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

  <T> Future<T> call(Context context, Callable<T> work) {
    Promise<T> promise = Promise.promise();
    threads.execute(
        () -> {
          try {
            T value = work.call();
            context.runOnContext(ignored -> promise.complete(value));
          } catch (Throwable failure) {
            context.runOnContext(ignored -> promise.fail(failure));
          }
        });
    return promise.future();
  }

  /** Runs {@code work} on a virtual thread and completes {@code result} with its outcome. */
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

  @Override
  public void close() {
    threads.shutdown();
  }
}
