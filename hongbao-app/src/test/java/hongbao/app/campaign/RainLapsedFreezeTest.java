package hongbao.app.campaign;

import static hongbao.app.campaign.RainFixture.campaign;
import static hongbao.app.campaign.RainFixture.prize;
import static hongbao.app.campaign.RainFixture.round;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.core.campaign.Campaign;
import hongbao.core.campaign.CampaignStore;
import hongbao.core.reward.RewardBudget;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A campaign edit freezes the reward budget's keys before it commits, and its arming lifts the
 * freeze by resizing them. A freeze can outlive both: the edit's instance died before or after its
 * commit, or its arming failed. Once it ended, no reward may reserve on the old keys before the
 * books have said whether the edit committed: the resize would then be refused for good, and every
 * arming of the campaign with it. On real Redis, PostgreSQL and Kafka, the reconciler after each
 * test.
 *
 * <p>The campaign closer's loop is held (its pass is run by hand), since it settles lapsed freezes
 * too: each test decides who settles.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RainLapsedFreezeTest extends RainOfItsOwn {

  private static final Duration LEAD = Duration.ofSeconds(60);

  RainLapsedFreezeTest() {
    super(
        "rain-lapsed-freeze",
        Map.of("HONGBAO_SWEEP_INTERVAL_MILLIS", Long.toString(Duration.ofHours(1).toMillis())));
  }

  @AfterEach
  void reconciled() {
    fixture.service.assertReconciled();
  }

  /**
   * An edit froze the budget and committed, but its arming never ran (its instance died, or Redis
   * failed it) and nothing loaded the new version before the freeze ended. A reward sent then must
   * not reserve on the old keys: the resize would find them spent, and every arming of the campaign
   * would stop as a broken invariant. The reward asks the books, opens the committed version and
   * reserves on the resized budget. The freeze of an edit that died before its commit is let go,
   * and the reward reserves on the budget as it stands. Both campaigns return exactly.
   */
  @Test
  void aRewardAfterAnEditsFreezeLapsed_opensTheCommittedBudget_orLetsAnUncommittedOneGo() {
    Instant now = fixture.clock.instant();
    Instant starts = now.plusSeconds(300);
    String committed =
        fixture.created(campaign(3_000, 1, 10, round(starts, 60, prize("CASH", 100, 10))));
    String uncommitted =
        fixture.created(campaign(1_000, 1, 10, round(starts, 60, prize("CASH", 100, 5))));
    RewardBudget budget = fixture.service.hongbao().rewards().sdk().parts().budget();
    // The reward budget reads the wall clock: frozen until a second ago, as by an edit whose 30 s
    // are over.
    Instant until = Instant.now().minusSeconds(1);
    assertThat(budget.freeze(committed, until, "died-after-commit"))
        .isEqualTo(RewardBudget.Freeze.FROZEN);
    assertThat(budget.freeze(uncommitted, until, "died-before-commit"))
        .isEqualTo(RewardBudget.Freeze.FROZEN);
    Campaign terms = RainFixture.editedTerms(committed, 8_000, starts, 10, now);
    // As the edit's own last step does, frozen again under its token (here, already ended).
    assertThat(
            fixture
                .rain()
                .store()
                .edit(
                    committed,
                    terms,
                    fixture.clock,
                    LEAD,
                    () -> budget.freeze(committed, until, "died-after-commit")))
        .isInstanceOf(CampaignStore.Edit.Edited.class);
    assertThat(budgetState(committed).budget().fen()).as("not resized").isEqualTo(3_000);

    fixture.othersBonus(committed, 300);
    assertThat(budgetState(committed).budget().fen()).isEqualTo(8_000);
    assertThat(budgetState(committed).reserved().fen()).isEqualTo(300);
    fixture.othersBonus(uncommitted, 200);
    assertThat(budgetState(uncommitted).budget().fen()).isEqualTo(1_000);
    assertThat(budgetState(uncommitted).reserved().fen()).isEqualTo(200);

    closeAfter(starts, committed, uncommitted);
    assertThat(returned(committed)).isEqualTo(7_700);
    assertThat(returned(uncommitted)).isEqualTo(800);
  }

  /**
   * An edit committed without arming and its freeze ended; then another edit of the campaign is
   * refused (its round would start within the edit lead) after taking that freeze over. Its
   * rollback must not leave the old keys unfrozen for a reward to spend from: it opens the stored
   * version's budget before freezing, so the keys hold the committed budget whatever becomes of it.
   * Before, the reward reserved on the old keys and every later arming was a broken invariant.
   */
  @Test
  void anEditRefusedAfterTakingOverALapsedFreeze_leavesTheCommittedBudgetArmed() {
    Instant now = fixture.clock.instant();
    Instant starts = now.plusSeconds(300);
    String id = fixture.created(campaign(3_000, 1, 10, round(starts, 60, prize("CASH", 100, 10))));
    RewardBudget budget = fixture.service.hongbao().rewards().sdk().parts().budget();
    // Ended by the wall clock the budget reads.
    assertThat(budget.freeze(id, Instant.now().minusSeconds(1), "died-after-commit"))
        .isEqualTo(RewardBudget.Freeze.FROZEN);
    Campaign terms = RainFixture.editedTerms(id, 8_000, starts, 10, now);
    assertThat(fixture.rain().store().edit(id, terms, fixture.clock, LEAD, () -> {}))
        .isInstanceOf(CampaignStore.Edit.Edited.class);

    var tooSoon = campaign(8_000, 1, 10, round(now.plusSeconds(30), 60, prize("CASH", 100, 10)));
    var refused = edit(id, tooSoon);
    assertThat(refused.status()).as(refused.raw()).isEqualTo(409);
    assertThat(budgetState(id).budget().fen()).as("the committed budget").isEqualTo(8_000);
    assertThat(budget.lapsedFreeze(id)).isFalse();
    fixture.othersBonus(id, 300);
    assertThat(budgetState(id).reserved().fen()).isEqualTo(300);
    // The keys hold version 2: arming it again is no broken invariant.
    fixture.rain().arming().arm(fixture.rain().store().find(id).orElseThrow());

    closeAfter(starts, id);
    assertThat(returned(id)).isEqualTo(7_700);
  }

  /**
   * A freeze whose edit died before committing, and no reward of a sender with the books to settle
   * it (the reward SDK of another service answers 503 meanwhile): the campaign closer lets it go on
   * its next pass, before the first round.
   */
  @Test
  void aLapsedFreezeOfAnUncommittedEdit_isLetGoByTheCloser_beforeTheFirstRound() {
    Instant starts = fixture.clock.instant().plusSeconds(300);
    String id = fixture.created(campaign(1_000, 1, 10, round(starts, 60, prize("CASH", 100, 5))));
    RewardBudget budget = fixture.service.hongbao().rewards().sdk().parts().budget();
    assertThat(budget.freeze(id, Instant.now().minusSeconds(1), "died-before-commit"))
        .isEqualTo(RewardBudget.Freeze.FROZEN);
    assertThat(budget.lapsedFreeze(id)).isTrue();
    fixture.rain().closer().closeOnce();
    assertThat(budget.lapsedFreeze(id)).isFalse();
    assertThat(budgetState(id).budget().fen()).isEqualTo(1_000);

    closeAfter(starts, id);
    assertThat(returned(id)).isEqualTo(1_000);
  }

  private RewardBudget.BudgetState budgetState(String id) {
    return fixture.service.hongbao().rewards().sdk().parts().budget().state(id);
  }

  private hongbao.app.support.Api.Response edit(String id, JsonObject body) {
    return fixture.api.put("/api/v1/admin/campaigns/" + id, fixture.admin, body.encode());
  }

  /**
   * Past the rounds and the return's grace, the closer's passes until {@code ids} returned. A pass
   * that fails for an outage (a credit still on its way) is passed again; a broken invariant fails
   * the test at once.
   */
  private void closeAfter(Instant starts, String... ids) {
    Instant past = starts.plusSeconds(60).plus(CampaignWiring.RETURN_GRACE).plusSeconds(1);
    fixture.clock.advance(Duration.between(fixture.clock.instant(), past));
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .ignoreExceptionsInstanceOf(RuntimeException.class)
        .until(
            () -> {
              fixture.rain().closer().closeOnce();
              return Arrays.stream(ids)
                  .allMatch(id -> fixture.rain().store().returned(id).isPresent());
            });
  }

  private long returned(String id) {
    return fixture.rain().store().returned(id).orElseThrow().amount().fen();
  }
}
