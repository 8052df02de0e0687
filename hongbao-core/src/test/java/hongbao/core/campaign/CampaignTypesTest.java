package hongbao.core.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.reward.RewardBudget;
import hongbao.core.reward.RewardKind;
import hongbao.core.reward.RewardType;
import hongbao.core.reward.RewardTypes;
import hongbao.core.reward.VirtualQueue;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * An operator defines a reward type on one instance; a campaign naming it is created or armed on
 * another whose copy of the types has not caught up yet (they refresh every second, and reach every
 * instance within five). The campaign must see the type as the operator defined it.
 */
class CampaignTypesTest {

  private static final Instant T0 = Instant.parse("2027-02-16T12:00:00Z");

  /** The shared types, and this instance's copy of them, which knows only the built-in CASH. */
  private static final class LaggingTypes implements RewardTypes {
    final Map<String, RewardType> shared = new HashMap<>();
    final List<RewardType> written = new ArrayList<>();

    @Override
    public Optional<RewardType> find(String type) {
      return type.equals(RewardType.CASH.type()) ? Optional.of(RewardType.CASH) : Optional.empty();
    }

    @Override
    public Optional<RewardType> findFresh(String type) {
      return Optional.ofNullable(shared.get(type)).or(() -> find(type));
    }

    @Override
    public RewardType put(RewardType type) {
      written.add(type);
      shared.put(type.type(), type);
      return type;
    }

    @Override
    public List<RewardType> all() {
      return List.copyOf(shared.values());
    }
  }

  private static CampaignDraft draft(long budget, PrizeLine prize) {
    return new CampaignDraft(
        "除夕红包雨", budget, List.of(new CampaignDraft.RoundDraft(T0, 60, List.of(prize))), 3, 10);
  }

  @SuppressWarnings("unchecked")
  private static <T> T only(Class<T> type, String method, Object answer) {
    return (T)
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (proxy, called, args) -> {
              if (!called.getName().equals(method)) {
                throw new AssertionError("unexpected " + called.getName());
              }
              return answer;
            });
  }

  @Test
  void arming_leavesATypeDefinedOnAnotherInstance_asItsOperatorDefinedIt() {
    var types = new LaggingTypes();
    var tea =
        new RewardType(
            "TEA", RewardKind.COUPON, 50, 5, true, VirtualQueue.SPECIAL, "http://issuer");
    types.shared.put("TEA", tea);
    Campaign campaign =
        CampaignRules.accept(
            "c_1", draft(1_000, new PrizeLine("TEA", 1, 10)), "CASH"::equals, T0.minusSeconds(60));

    CampaignService.issuing(
            types,
            only(RewardBudget.class, "open", null),
            only(CampaignStore.class, "returned", Optional.empty()),
            id -> {
              throw new AssertionError("not returned: nothing to close");
            })
        .accept(campaign);

    assertThat(types.written).as("no default coupon over the operator's type").isEmpty();
    assertThat(types.shared.get("TEA")).isEqualTo(tea);
  }

  @Test
  void creation_weighsACashTypeDefinedOnAnotherInstance_againstTheBudget() {
    var types = new LaggingTypes();
    types.shared.put(
        "BIG", new RewardType("BIG", RewardKind.CASH, 100, 10, false, VirtualQueue.MASSIVE, null));
    var service =
        new CampaignService(
            only(CampaignStore.class, "none", null),
            null,
            null,
            types,
            only(RewardBudget.class, "none", null),
            Clock.fixed(T0.minusSeconds(3_600), ZoneOffset.UTC),
            new SplittableRandom(1));

    assertThatThrownBy(
            () ->
                service.create(
                    draft(1, new PrizeLine("BIG", 100, 1_000)),
                    new IdempotencyKey("admin", CampaignService.ENDPOINT, "k", "h"),
                    campaign -> null))
        .isInstanceOfSatisfying(
            RejectedException.class,
            e -> assertThat(e.rejection()).isEqualTo(Rejection.INVALID_AMOUNT));
    assertThat(types.written).isEmpty();
  }
}
