package hongbao.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.Invariants;
import org.junit.jupiter.api.Test;

class ScriptReplyTest {

  @Test
  void aReply_givesItsVerdict_itsNumbersInOrder_andWhatFollowsTheVerdict() {
    assertThat(ScriptReply.verdict("GRABBED 49 6838")).isEqualTo("GRABBED");
    assertThat(ScriptReply.verdict("SOLD_OUT")).isEqualTo("SOLD_OUT");
    assertThat(ScriptReply.number("GRABBED 49 6838", 0)).isEqualTo(49);
    assertThat(ScriptReply.number("GRABBED 49 6838", 1)).isEqualTo(6838);
    assertThat(ScriptReply.number("DRY 9007199254740991", 0)).isEqualTo(9_007_199_254_740_991L);
    assertThat(ScriptReply.rest("REPLAY a token with spaces")).isEqualTo("a token with spaces");
    assertThat(ScriptReply.rest("REPLAY ")).isEmpty();
  }

  @Test
  void aMissingOrMalformedValue_isAnInvariantViolation() {
    assertThatThrownBy(() -> ScriptReply.number("GRABBED 49", 1))
        .isInstanceOf(Invariants.InvariantViolation.class)
        .hasMessageContaining("no value 1");
    assertThatThrownBy(() -> ScriptReply.number("SOLD_OUT", 0))
        .isInstanceOf(Invariants.InvariantViolation.class);
    assertThatThrownBy(() -> ScriptReply.number("GRABBED 4x9 1", 0))
        .isInstanceOf(Invariants.InvariantViolation.class)
        .hasMessageContaining("not a number");
    assertThatThrownBy(() -> ScriptReply.rest("REPLAY"))
        .isInstanceOf(Invariants.InvariantViolation.class);
  }
}
