package hongbao.postgres;

import static hongbao.postgres.TestSchema.user;
import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.money.Amount;
import hongbao.core.packet.ClaimDecision;
import hongbao.core.packet.ClaimResolution;
import hongbao.core.packet.OpenRefusedClaim;
import hongbao.core.packet.Packet;
import hongbao.core.packet.RefusedClaim;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

class PostgresRefusedClaimsTest extends LedgerTestBase {

  /**
   * Operators resolving one refused claim at the same moment, some compensating it and some
   * dismissing it: the claim's row is taken one at a time, so exactly one decision is made, every
   * call with that decision answers it, every other is a conflict, and the wallet is paid at most
   * once.
   */
  @Test
  void resolve_fromSeveralThreads_decidesOnce_andPaysAtMostOnce() throws InterruptedException {
    String alice = user("alice");
    String bob = user("bob");
    db.topUp(alice, 1_000);
    Packet packet = db.send(alice, 1_000, 3);
    db.packets.recordRefusedClaim(
        new RefusedClaim(packet.id(), bob, Amount.fen(300), "lost", TestSchema.T0));
    long id =
        db.packets.openRefusedClaims(1_000).stream()
            .filter(open -> open.claim().userId().equals(bob))
            .mapToLong(OpenRefusedClaim::id)
            .findFirst()
            .orElseThrow();
    List<Callable<Optional<ClaimResolution>>> operators = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      ClaimDecision decision = i % 2 == 0 ? ClaimDecision.COMPENSATE : ClaimDecision.DISMISS;
      operators.add(() -> db.ledger.resolveRefusedClaim(id, decision, "operator", TestSchema.T0));
    }

    List<Race.Result<Optional<ClaimResolution>>> results = Race.run(operators);

    List<ClaimResolution> answered =
        results.stream()
            .filter(r -> r.failure() == null)
            .map(r -> r.value().orElseThrow())
            .toList();
    assertThat(answered).isNotEmpty();
    ClaimDecision decided = answered.getFirst().decision();
    assertThat(answered).allSatisfy(r -> assertThat(r).isEqualTo(answered.getFirst())).hasSize(6);
    assertThat(results)
        .filteredOn(r -> r.failure() != null)
        .hasSize(6)
        .allSatisfy(
            r ->
                assertThat(((RejectedException) r.failure()).rejection())
                    .isEqualTo(Rejection.CONFLICT));
    assertThat(db.balance(bob))
        .isEqualTo(decided == ClaimDecision.COMPENSATE ? Amount.fen(300) : Amount.ZERO);
    assertThat(db.packets.openRefusedClaims(1_000))
        .noneMatch(open -> open.claim().userId().equals(bob));
  }
}
