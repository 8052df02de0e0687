package hongbao.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

class BlockingTest {

  private static final Logger LOG = LoggerFactory.getLogger(BlockingTest.class);

  private final ch.qos.logback.classic.Logger logger =
      (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(BlockingTest.class);
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private Vertx vertx;
  private Blocking blocking;

  @BeforeEach
  void start() {
    appender.start();
    logger.addAppender(appender);
    vertx = Vertx.vertx();
    blocking = new Blocking();
  }

  @AfterEach
  void stop() throws Exception {
    blocking.close();
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    logger.detachAppender(appender);
    appender.stop();
  }

  @Test
  void call_logsTheCallersRequestId_inTheWorkAndInItsAnswer_thenLeavesTheLoopClean()
      throws Exception {
    Context context = vertx.getOrCreateContext();

    runAsRequest(context, "req-ok", () -> "done");
    runAsRequest(
        context,
        "req-failed",
        () -> {
          throw new IllegalStateException("the ledger said no");
        });
    String leftOnTheLoop = onContext(context, () -> MDC.get(RequestTelemetry.MDC_KEY));

    assertThat(lines())
        .containsExactly(
            "inside req-ok", "answered req-ok", "inside req-failed", "failed req-failed");
    assertThat(appender.list.get(0).getThreadName())
        .isNotEqualTo(appender.list.get(1).getThreadName());
    assertThat(leftOnTheLoop).isNull();
  }

  @Test
  void call_pastItsBound_failsAtOnceAsUnavailable_andTakesWorkAgainOnceSomeFinishes()
      throws Exception {
    Context context = vertx.getOrCreateContext();
    var bounded = new Blocking(2);
    var release = new java.util.concurrent.CountDownLatch(1);
    try {
      java.util.concurrent.Callable<String> held =
          () -> {
            release.await();
            return "held";
          };
      var first = onContext(context, () -> bounded.call(context, held));
      var second = onContext(context, () -> bounded.call(context, held));
      var third = onContext(context, () -> bounded.call(context, () -> "third"));

      assertThat(third.failed()).isTrue();
      assertThat(third.cause())
          .isInstanceOf(hongbao.core.Unavailable.class)
          .hasMessageContaining("more than 2 requests");
      assertThat(first.isComplete()).isFalse();

      release.countDown();
      assertThat(first.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS))
          .isEqualTo("held");
      assertThat(second.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS))
          .isEqualTo("held");
      var fourth = onContext(context, () -> bounded.call(context, () -> "fourth"));
      assertThat(fourth.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS))
          .isEqualTo("fourth");
    } finally {
      release.countDown();
      bounded.close();
    }
  }

  @Test
  void executor_runsOnAVirtualThreadWithTheCallersRequestId_underTheSameBound() throws Exception {
    var bounded = new Blocking(1);
    var release = new java.util.concurrent.CountDownLatch(1);
    try {
      MDC.put(RequestTelemetry.MDC_KEY, "req-won");
      java.util.concurrent.Executor executor;
      try {
        executor = bounded.executor();
      } finally {
        MDC.remove(RequestTelemetry.MDC_KEY);
      }
      var seen = new CompletableFuture<String>();
      executor.execute(
          () -> {
            LOG.info("continued");
            seen.complete(Thread.currentThread().isVirtual() + " " + awaitQuietly(release));
          });

      assertThatThrownBy(() -> executor.execute(() -> {}))
          .isInstanceOf(hongbao.core.Unavailable.class)
          .hasMessageContaining("more than 1 requests");
      release.countDown();
      assertThat(seen.get(10, TimeUnit.SECONDS)).isEqualTo("true released");
      assertThat(lines()).containsExactly("continued req-won");
      // The permit goes back just after the task returns: the next one is taken once it has.
      var again = new CompletableFuture<Void>();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!again.isDone()) {
        try {
          executor.execute(() -> again.complete(null));
          break;
        } catch (hongbao.core.Unavailable stillHeld) {
          assertThat(System.nanoTime()).as("the permit came back").isLessThan(deadline);
          Thread.sleep(5);
        }
      }
      again.get(10, TimeUnit.SECONDS);
    } finally {
      release.countDown();
      bounded.close();
    }
  }

  private static String awaitQuietly(java.util.concurrent.CountDownLatch latch) {
    try {
      return latch.await(10, TimeUnit.SECONDS) ? "released" : "timed out";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  /** A request's handler: puts its id in the MDC, calls {@code work} blocking, logs the outcome. */
  private void runAsRequest(
      Context context, String requestId, java.util.concurrent.Callable<String> work)
      throws Exception {
    var answered = new CompletableFuture<Void>();
    context.runOnContext(
        ignored -> {
          MDC.put(RequestTelemetry.MDC_KEY, requestId);
          try {
            blocking
                .call(
                    context,
                    () -> {
                      LOG.info("inside");
                      return work.call();
                    })
                .onComplete(
                    outcome -> {
                      LOG.info(outcome.succeeded() ? "answered" : "failed");
                      answered.complete(null);
                    });
          } finally {
            MDC.remove(RequestTelemetry.MDC_KEY);
          }
        });
    answered.get(10, TimeUnit.SECONDS);
  }

  private static <T> T onContext(Context context, java.util.function.Supplier<T> read)
      throws Exception {
    var value = new CompletableFuture<T>();
    context.runOnContext(ignored -> value.complete(read.get()));
    return value.get(10, TimeUnit.SECONDS);
  }

  private List<String> lines() {
    return appender.list.stream()
        .map(
            e ->
                e.getFormattedMessage()
                    + " "
                    + Map.copyOf(e.getMDCPropertyMap()).get(RequestTelemetry.MDC_KEY))
        .toList();
  }
}
