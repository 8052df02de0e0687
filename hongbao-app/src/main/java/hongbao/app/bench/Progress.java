package hongbao.app.bench;

import java.io.PrintStream;
import java.util.function.LongSupplier;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Shows how far a load has come: a progress bar on a terminal, a plain line every two seconds
 * otherwise (logs and CI do not render carriage returns).
 */
final class Progress implements AutoCloseable {

  private static final long LINE_EVERY_MILLIS = 2_000;

  private final Thread ticker;
  private final ProgressBar bar;

  Progress(String task, long total, LongSupplier done, PrintStream out) {
    boolean terminal = System.console() != null;
    this.bar =
        terminal
            ? new ProgressBarBuilder()
                .setTaskName(task)
                .setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII)
                .continuousUpdate()
                .build()
            : null;
    long started = System.nanoTime();
    this.ticker =
        Thread.ofPlatform()
            .daemon()
            .name("bench-progress")
            .start(
                () -> {
                  try {
                    while (!Thread.currentThread().isInterrupted()) {
                      Thread.sleep(bar != null ? 200 : LINE_EVERY_MILLIS);
                      long now = done.getAsLong();
                      if (bar != null) {
                        bar.stepTo(now);
                      } else {
                        double seconds = (System.nanoTime() - started) / 1e9;
                        out.printf("%s: %d/%d requests, %.0f/s%n", task, now, total, now / seconds);
                      }
                    }
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
  }

  @Override
  public void close() {
    ticker.interrupt();
    try {
      ticker.join(1_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (bar != null) {
      bar.close();
    }
  }
}
