package hongbao.app.campaign;

import static hongbao.app.campaign.RainFixture.campaign;
import static hongbao.app.campaign.RainFixture.prize;
import static hongbao.app.campaign.RainFixture.round;
import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.campaign.Campaign;
import hongbao.core.reconcile.Reconciler;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A rain whose return fails on every pass: the reconciler names it, with what its escrow holds,
 * once it waited longer than the closer's grace and the reconciler's patience, and never before. On
 * a schema of its own: the fault is a trigger on its campaign table.
 */
class RainOverdueReturnTest extends RainOfItsOwn {

  private static final long BUDGET = 10_000;

  RainOverdueReturnTest() {
    super("rain-overdue-return", Map.of());
  }

  @Test
  void aReturnThatFailsEveryPass_isNamedOnceOverdue_andNoLongerOnceReturned() {
    Instant starts = fixture.clock.instant().plusSeconds(10);
    String stuck = fixture.created(campaign(BUDGET, 1, 10, round(starts, 60, prize("CASH", 1, 5))));
    String behind =
        fixture.created(campaign(BUDGET, 1, 10, round(starts, 90, prize("CASH", 1, 5))));
    // The database refuses the stuck campaign's return every time, with an error that is neither
    // an outage nor the books' refusal: the closer tries it on every pass.
    fixture.books.execute(
        """
        CREATE FUNCTION fail_return() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF NEW.id = '%s' AND NEW.returned_at IS NOT NULL THEN
                RAISE EXCEPTION 'the test fails this return';
            END IF;
            RETURN NEW;
        END $$"""
            .formatted(stuck),
        "CREATE TRIGGER fail_return BEFORE UPDATE ON campaign"
            + " FOR EACH ROW EXECUTE FUNCTION fail_return()");

    // The campaign that ends later is returned behind the failing one, which ends first.
    Campaign later = fixture.rain().campaigns().get(behind);
    fixture.pastReturnGrace(later);
    assertThat(fixture.awaitReturned(behind)).isEqualTo(BUDGET);
    assertThat(fixture.rain().store().returned(stuck)).isEmpty();
    Reconciler reconciler = fixture.service.hongbao().parts().reconciler();
    assertThat(reconciler.reconcile().discrepancies())
        .as("within the reconciler's patience beyond the grace")
        .isEmpty();

    Campaign failing = fixture.rain().campaigns().get(stuck);
    Instant due =
        failing.endsAt().plus(CampaignWiring.RETURN_GRACE).plus(reconciler.limits().refundAfter());
    fixture.clock.advance(Duration.between(fixture.clock.instant(), due).plusSeconds(1));
    assertThat(reconciler.reconcile().discrepancies())
        .containsExactly(
            "campaign %s: ended at %s and its unspent budget not returned: escrow holds %d fen"
                .formatted(stuck, failing.endsAt(), BUDGET));

    // Mended, it is returned at the closer's next pass, once, and the books are whole.
    fixture.books.execute("DROP TRIGGER fail_return ON campaign");
    assertThat(fixture.awaitReturned(stuck)).isEqualTo(BUDGET);
    assertThat(fixture.escrow(stuck)).isZero();
    assertThat(fixture.returnTransfers(stuck)).isEqualTo(1);
    assertThat(reconciler.reconcile().discrepancies()).isEmpty();
  }
}
