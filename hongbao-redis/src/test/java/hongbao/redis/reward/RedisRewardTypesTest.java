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

  @Test
  void aTypeDefinedElsewhereAMomentAgo_isFoundFresh_beforeTheCopyIsRefreshed() {
    types.put(type("NEW_TEA", RewardKind.COUPON, 100));

    assertThat(elsewhere.find("NEW_TEA")).as("its copy, refreshed hourly here").isEmpty();
    assertThat(elsewhere.findFresh("NEW_TEA").map(RewardType::kind)).contains(RewardKind.COUPON);
    assertThat(elsewhere.find("NEW_TEA")).isPresent();
    assertThat(elsewhere.findFresh("NEVER_DEFINED")).isEmpty();
  }

  @Test
  void theBuiltInCashType_staysCash() {
    assertThatThrownBy(() -> types.put(type("CASH", RewardKind.COUPON, 100)))
        .isInstanceOf(RejectedException.class);
    assertThat(types.put(type("CASH", RewardKind.CASH, 100)).kind()).isEqualTo(RewardKind.CASH);
  }
}
