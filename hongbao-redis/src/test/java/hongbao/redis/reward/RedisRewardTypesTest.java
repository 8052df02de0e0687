package hongbao.redis.reward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.reward.RewardKind;
import hongbao.core.reward.RewardType;
import hongbao.core.reward.VirtualQueue;
import hongbao.redis.TestRedis;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RedisRewardTypesTest {

  private final RewardKeys keys = new RewardKeys("t" + System.nanoTime());
  private final RedisRewardTypes types =
      new RedisRewardTypes(TestRedis.link(), keys, Duration.ofHours(1));
  private final RedisRewardTypes elsewhere =
      new RedisRewardTypes(TestRedis.link(), keys, Duration.ofHours(1));

  @AfterEach
  void close() {
    types.close();
    elsewhere.close();
  }

  private static RewardType type(String name, RewardKind kind, long rate) {
    return new RewardType(name, kind, rate, 1, false, VirtualQueue.MASSIVE, null);
  }

  @Test
  void aTypesKindNeverChanges_itsOtherSettingsDo() {
    types.put(type("TEA", RewardKind.COUPON, 100));

    assertThat(types.put(type("TEA", RewardKind.COUPON, 200)).ratePerSecond()).isEqualTo(200);
    // Another instance, whose copy has not seen TEA yet, is refused as well.
    assertThatThrownBy(() -> elsewhere.put(type("TEA", RewardKind.CASH, 200)))
        .isInstanceOfSatisfying(
            RejectedException.class, e -> assertThat(e.rejection()).isEqualTo(Rejection.CONFLICT));
    elsewhere.refresh();
    assertThat(elsewhere.find("TEA").orElseThrow().kind()).isEqualTo(RewardKind.COUPON);
  }

  /**
   * Two instances define one new type at once, one as a coupon, one as cash: one is stored, the
   * other refused, every time. Read and written apart, both could find no type and both be told
   * 200, the later write deciding whether rewards accepted as free coupons are paid as cash.
   */
  @Test
  void twoInstancesDefiningOneTypeWithTwoKindsAtOnce_storeOneAndRefuseTheOther() throws Exception {
    try (var pool = Executors.newFixedThreadPool(2)) {
      for (int round = 0; round < 40; round++) {
        String name = "RACE_" + round;
        var start = new CountDownLatch(1);
        Future<Boolean> coupon =
            pool.submit(() -> definedAfter(start, types, type(name, RewardKind.COUPON, 10)));
        Future<Boolean> cash =
            pool.submit(() -> definedAfter(start, elsewhere, type(name, RewardKind.CASH, 10)));
        start.countDown();
        boolean couponStored = coupon.get(10, TimeUnit.SECONDS);
        boolean cashStored = cash.get(10, TimeUnit.SECONDS);

        assertThat(couponStored ^ cashStored)
            .as("exactly one of the two, round %d", round)
            .isTrue();
        types.refresh();
        assertThat(types.find(name).orElseThrow().kind())
            .isEqualTo(couponStored ? RewardKind.COUPON : RewardKind.CASH);
      }
    }
  }

  private static boolean definedAfter(CountDownLatch start, RedisRewardTypes on, RewardType type)
      throws InterruptedException {
    start.await();
    try {
      on.put(type);
      return true;
    } catch (RejectedException e) {
      assertThat(e.rejection()).isEqualTo(Rejection.CONFLICT);
      return false;
    }
  }

  @Test
  void aTypeDefinedElsewhereAMomentAgo_isFoundFresh_beforeTheCopyIsRefreshed() {
    types.put(type("NEW_TEA", RewardKind.COUPON, 100));

    assertThat(elsewhere.find("NEW_TEA")).as("its copy, refreshed hourly here").isEmpty();
    assertThat(elsewhere.findFresh("NEW_TEA").map(RewardType::kind)).contains(RewardKind.COUPON);
    assertThat(elsewhere.find("NEW_TEA")).isPresent();
    assertThat(elsewhere.findFresh("NEVER_DEFINED")).isEmpty();
  }

  /**
   * Redis loses the types (a restart without its data): an instance that still knows them writes
   * them back on its next refresh, with their settings, and a type another instance wrote meanwhile
   * is kept as that one wrote it.
   */
  @Test
  void typesRedisLost_areWrittenBack_byAnInstanceThatKnowsThem() {
    var tea = new RewardType("TEA", RewardKind.COUPON, 100, 7, true, VirtualQueue.EXPRESS, null);
    types.put(tea);
    types.put(type("VIP", RewardKind.COUPON, 10));
    var redis = TestRedis.link().sync();
    redis.del(keys.types());
    elsewhere.put(type("VIP", RewardKind.COUPON, 20));

    types.refresh();

    assertThat(redis.hkeys(keys.types())).containsExactlyInAnyOrder("TEA", "VIP");
    assertThat(types.find("TEA")).contains(tea);
    assertThat(types.find("VIP").orElseThrow().ratePerSecond())
        .as("a type Redis holds again, written by another instance, is not written over")
        .isEqualTo(20);
    elsewhere.refresh();
    assertThat(elsewhere.find("TEA")).contains(tea);
  }

  @Test
  void theBuiltInCashType_staysCash() {
    assertThatThrownBy(() -> types.put(type("CASH", RewardKind.COUPON, 100)))
        .isInstanceOf(RejectedException.class);
    assertThat(types.put(type("CASH", RewardKind.CASH, 100)).kind()).isEqualTo(RewardKind.CASH);
  }
}
