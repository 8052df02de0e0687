package hongbao.core.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SubPoolsTest {

  @Test
  void forPrizes_givesOneSubPoolPer6250Prizes_boundedTo1024() {
    assertThat(SubPools.forPrizes(1)).isEqualTo(1);
    assertThat(SubPools.forPrizes(6_250)).isEqualTo(1);
    assertThat(SubPools.forPrizes(6_251)).isEqualTo(2);
    assertThat(SubPools.forPrizes(100_000)).isEqualTo(16);
    assertThat(SubPools.forPrizes(10_000_000)).isEqualTo(1_024);
  }

  @Test
  void share_splitsEveryLineExactly_andEvenly() {
    var random = new SplittableRandom(42);
    for (int trial = 0; trial < 500; trial++) {
      long count = 1 + random.nextLong(10_000_000);
      int pools = 1 + random.nextInt(1_024);
      int line = random.nextInt(20);
      var prize = new PrizeLine("CASH", 1, count);
      long sum = 0;
      long min = Long.MAX_VALUE;
      long max = 0;
      for (int pool = 0; pool < pools; pool++) {
        long share = SubPools.share(prize, line, pool, pools);
        sum += share;
        min = Math.min(min, share);
        max = Math.max(max, share);
      }
      assertThat(sum).as("count %d over %d pools", count, pools).isEqualTo(count);
      assertThat(max - min).isLessThanOrEqualTo(1);
    }
  }

  @Test
  void home_isStable_andSpreadsUsers() {
    int[] homes = new int[16];
    for (int u = 0; u < 16_000; u++) {
      int home = SubPools.home("u" + u, 16);
      assertThat(SubPools.home("u" + u, 16)).isEqualTo(home);
      homes[home]++;
    }
    for (int count : homes) {
      assertThat(count).isBetween(800, 1_200);
    }
  }
}
