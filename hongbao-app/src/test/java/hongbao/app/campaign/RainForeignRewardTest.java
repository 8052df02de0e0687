package hongbao.app.campaign;

import static hongbao.app.campaign.RainFixture.campaign;
import static hongbao.app.campaign.RainFixture.prize;
import static hongbao.app.campaign.RainFixture.round;
import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.campaign.Campaign;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Another sender may pay a CASH reward out of a red-packet rain's campaign (the reward API and the
 * SDK take any campaign with a budget). The closer returns budget − reserved, the other sender's
 * cash left out, and the audit must expect exactly that: it expected budget − the CASH the pools
 * won, and reported a campaign whose every fen is accounted for.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RainForeignRewardTest extends RainOfItsOwn {

  private static final long BUDGET = 10_000;
  private static final long BONUS = 500;

  RainForeignRewardTest() {
    super("rain-foreign", Map.of());
  }

  @Test
  void aCashRewardOfAnotherSenderInTheRainsCampaign_leavesTheBooksExact_andTheAuditClean() {
    Instant starts = fixture.clock.instant().plusSeconds(10);
    String id = fixture.created(campaign(BUDGET, 1, 10, round(starts, 60, prize("CASH", 100, 10))));
    Campaign campaign = fixture.rain().campaigns().get(id);

    fixture.othersBonus(id, BONUS);

    // Nobody taps; the round ends and the closer returns what was not reserved.
    fixture.pastReturnGrace(campaign);
    assertThat(fixture.awaitReturned(id)).isEqualTo(BUDGET - BONUS);
    assertThat(fixture.escrow(id)).as("every fen accounted for").isZero();

    fixture.service.assertReconciled();
  }
}
