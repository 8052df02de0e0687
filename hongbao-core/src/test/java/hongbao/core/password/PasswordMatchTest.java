package hongbao.core.password;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PasswordMatchTest {

  /** A pronunciation where each character is its own only reading, and alike means equal. */
  private static final Pronunciation LITERAL =
      new Pronunciation() {
        @Override
        public Reading read(String key) {
          return new Reading(
              key.codePoints().mapToObj(c -> List.of(Character.toString(c))).toList());
        }

        @Override
        public boolean alike(Reading phrase, Reading attempt, PasswordMatch match) {
          return phrase.equals(attempt) || match instanceof PasswordMatch.Fuzzy;
        }
      };

  @Test
  void parse_readsEveryCode_andNothingElse() {
    assertThat(PasswordMatch.parse("EXACT")).contains(PasswordMatch.EXACT);
    assertThat(PasswordMatch.parse("PINYIN")).contains(PasswordMatch.PINYIN);
    assertThat(PasswordMatch.parse("85")).contains(new PasswordMatch.Fuzzy(85));
    assertThat(PasswordMatch.parse("100")).contains(new PasswordMatch.Fuzzy(100));
    for (String bad : new String[] {"49", "101", "8", "FUZZY", "", "-60", "1000"}) {
      assertThat(PasswordMatch.parse(bad)).as(bad).isEmpty();
    }
    assertThat(PasswordMatch.parse(null)).isEmpty();
    assertThatThrownBy(() -> new PasswordMatch.Fuzzy(49))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void code_roundTrips() {
    for (PasswordMatch match :
        List.of(PasswordMatch.EXACT, PasswordMatch.PINYIN, new PasswordMatch.Fuzzy(50))) {
      assertThat(PasswordMatch.parse(match.code())).contains(match);
    }
  }

  @Test
  void lock_opensWithItsOwnKey_inEveryMode_andAsksThePronunciationOtherwise() {
    var exact = PasswordLock.of("恭喜发财", PasswordMatch.EXACT, LITERAL);
    var fuzzy = PasswordLock.of("恭喜发财", new PasswordMatch.Fuzzy(90), LITERAL);

    assertThat(exact.opens("恭喜发财", LITERAL)).isTrue();
    assertThat(exact.opens("恭禧發財", LITERAL)).isFalse();
    assertThat(exact.reading()).isNull();
    assertThat(fuzzy.opens("恭禧發財", LITERAL)).isTrue();
    assertThat(fuzzy.opens("", LITERAL)).isFalse();
  }

  @Test
  void reading_encodesAndDecodes() {
    var reading =
        new Reading(List.of(List.of("yin"), List.of("hang", "xing", "heng"), List.of("8", "ba")));

    assertThat(reading.encode()).isEqualTo("yin hang|xing|heng 8|ba");
    assertThat(Reading.decode(reading.encode())).isEqualTo(reading);
    assertThat(Reading.decode("")).isEqualTo(new Reading(List.of()));
  }
}
