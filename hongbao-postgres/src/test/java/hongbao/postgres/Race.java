package hongbao.postgres;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Starts several callers at once, behind one gate, and collects what each got. */
final class Race {

  private Race() {}

  /** What one racer got: a value or the exception it threw. */
  record Result<T>(T value, Throwable failure) {}

  static <T> List<Result<T>> run(int racers, Callable<T> racer) throws InterruptedException {
    List<Callable<T>> racersList = new ArrayList<>();
    for (int i = 0; i < racers; i++) {
      racersList.add(racer);
    }
    return run(racersList);
  }

  static <T> List<Result<T>> run(List<Callable<T>> racers) throws InterruptedException {
    CountDownLatch gate = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(racers.size());
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (Callable<T> racer : racers) {
        futures.add(
            pool.submit(
                () -> {
                  gate.await();
                  return racer.call();
                }));
      }
      gate.countDown();
      List<Result<T>> results = new ArrayList<>();
      for (Future<T> future : futures) {
        try {
          results.add(new Result<>(future.get(60, TimeUnit.SECONDS), null));
        } catch (java.util.concurrent.ExecutionException e) {
          results.add(new Result<>(null, e.getCause()));
        } catch (java.util.concurrent.TimeoutException e) {
          throw new AssertionError("a racer did not finish within 60 s", e);
        }
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }
}
