package hongbao.redis.grab;

import hongbao.core.grab.GrabAttempt;
import hongbao.core.grab.GrabOutcome;
import hongbao.core.grab.GrabStore;
import hongbao.core.money.Amount;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** One answer of a race, and the harness that starts every attempt at once from many threads. */
record RaceResult(String user, GrabOutcome outcome) {

  Amount amount() {
    return switch (outcome) {
      case GrabOutcome.Grabbed grabbed -> grabbed.amount();
      case GrabOutcome.AlreadyGrabbed already -> already.amount();
      default -> null;
    };
  }

  /**
   * Runs the attempts on {@code threads} threads released together by a latch, each sending its
   * share of attempts without waiting for the previous answer, so that they really overlap.
   */
  static List<RaceResult> runConcurrently(GrabStore store, List<GrabAttempt> attempts, int threads)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      var start = new CountDownLatch(1);
      var futures = new ArrayList<Future<List<RaceResult>>>();
      for (int t = 0; t < threads; t++) {
        List<GrabAttempt> mine = new ArrayList<>();
        for (int i = t; i < attempts.size(); i += threads) {
          mine.add(attempts.get(i));
        }
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  var stages = new ArrayList<CompletionStage<GrabOutcome>>();
                  for (GrabAttempt attempt : mine) {
                    stages.add(store.grab(attempt));
                  }
                  var results = new ArrayList<RaceResult>();
                  for (int i = 0; i < mine.size(); i++) {
                    GrabOutcome outcome = stages.get(i).toCompletableFuture().join();
                    results.add(new RaceResult(mine.get(i).userId(), outcome));
                  }
                  return results;
                }));
      }
      start.countDown();
      var all = new ArrayList<RaceResult>();
      for (var future : futures) {
        all.addAll(future.get());
      }
      return all;
    } finally {
      pool.shutdownNow();
    }
  }
}
