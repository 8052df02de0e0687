package hongbao.core.withdrawal;

import static hongbao.core.withdrawal.WithdrawalStatus.FAILED;
import static hongbao.core.withdrawal.WithdrawalStatus.REQUESTED;
import static hongbao.core.withdrawal.WithdrawalStatus.SENT;
import static hongbao.core.withdrawal.WithdrawalStatus.SUCCEEDED;
import static hongbao.core.withdrawal.WithdrawalStatus.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.Invariants;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WithdrawalStatusTest {

  @Test
  void theMovesOfTheStateMachine_andNoOthers() {
    var allowed =
        Set.of(
            "REQUESTED>SENT",
            "SENT>UNKNOWN",
            "SENT>SUCCEEDED",
            "SENT>FAILED",
            "UNKNOWN>SENT",
            "UNKNOWN>SUCCEEDED",
            "UNKNOWN>FAILED");
    for (WithdrawalStatus from : WithdrawalStatus.values()) {
      for (WithdrawalStatus to : WithdrawalStatus.values()) {
        assertThat(from.canMoveTo(to))
            .as("%s -> %s", from, to)
            .isEqualTo(allowed.contains(from + ">" + to));
      }
    }
    assertThat(EnumSet.allOf(WithdrawalStatus.class).stream().filter(WithdrawalStatus::settled))
        .containsExactly(SUCCEEDED, FAILED);
  }

  @Test
  void aMoveTheMachineForbids_isABug() {
    Instant now = Instant.EPOCH;
    assertThatThrownBy(
            () -> new Move(1, Set.of(REQUESTED), SUCCEEDED, "x", now, null, "ref", false, -1))
        .isInstanceOf(Invariants.InvariantViolation.class);
    assertThatThrownBy(() -> new Move(1, Set.of(SENT), UNKNOWN, "x", now, null, null, false, -1))
        .as("an unsettled withdrawal needs its next check")
        .isInstanceOf(Invariants.InvariantViolation.class);
  }

  @Test
  void outTradeNumbers_areUniquePerId_andFitTheGatewaysLimit() {
    assertThat(Withdrawal.outTradeNo(1, 0)).isEqualTo("HBW000000000000000100000000");
    assertThat(Withdrawal.outTradeNo(1, 35)).isEqualTo("HBW00000000000000010000000Z");
    assertThat(Withdrawal.outTradeNo(1, -1)).isEqualTo("HBW0000000000000001ZZZZZZZZ");
    for (long nonce : new long[] {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE}) {
      assertThat(Withdrawal.outTradeNo(Long.MAX_VALUE, nonce)).matches("HBW[0-9]{19}[0-9A-Z]{8}");
    }
  }
}
