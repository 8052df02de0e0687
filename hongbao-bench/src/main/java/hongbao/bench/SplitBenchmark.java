package hongbao.bench;

import hongbao.core.split.SplitPolicies;
import hongbao.core.split.SplitPolicy;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How long one split takes: a 100.00 CNY packet in 10 shares (the common case) and the largest
 * packet the API allows, 200,000.00 CNY in 10,000 shares (the hot-packet case, split once at send
 * time). Each invocation splits one whole packet; the random stream carries on between them.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SplitBenchmark {

  @Param({"double-mean", "double-mean-smoothed", "at-grab", "fixed", "fair", "normal"})
  public String policy;

  /** amount in fen / share count. */
  @Param({"10000/10", "20000000/10000"})
  public String packet;

  private SplitPolicy split;
  private long amountFen;
  private int count;
  private SplittableRandom random;

  @Setup
  public void setUp() {
    split = SplitPolicies.named(policy);
    String[] parts = packet.split("/");
    amountFen = Long.parseLong(parts[0]);
    count = Integer.parseInt(parts[1]);
    random = new SplittableRandom(42);
  }

  @Benchmark
  public long[] split() {
    return split.split(amountFen, count, random);
  }
}
