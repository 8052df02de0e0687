package hongbao.pinyin;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.password.PasswordKey;
import hongbao.core.password.PasswordLock;
import hongbao.core.password.PasswordMatch;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real phrase pairs, each with whether it matches under EXACT, PINYIN, a fuzzy 100% and a fuzzy
 * 80%: what a speech recogniser writes for a 口令 (homophones, traditional characters, full width,
 * punctuation), polyphones, the sounds people confuse, and phrases that must not match. Every row
 * is checked in every mode through {@link PasswordLock}, as a grab is.
 */
class PasswordMatchTableTest {

  private static final PinyinPronunciation PINYIN = new PinyinPronunciation().warmUp();

  private static final PasswordMatch[] MODES = {
    PasswordMatch.EXACT,
    PasswordMatch.PINYIN,
    new PasswordMatch.Fuzzy(100),
    new PasswordMatch.Fuzzy(80)
  };

  /** sender's phrase, the grab's phrase, then Y/N for EXACT, PINYIN, 100, 80; and why. */
  private static final String[][] TABLE = {
    {"恭喜发财", "恭喜发财", "YYYY", "the same phrase"},
    {"恭喜发财", "恭喜，发财！", "YYYY", "punctuation is dropped"},
    {"恭喜发财", "恭禧發財", "NYYY", "traditional characters and a homophone"},
    {"恭喜发财", "工喜发财", "NYYY", "homophone 工/恭"},
    {"恭喜发财", "宫喜发才", "NYYY", "two homophones"},
    {"恭喜发财", "公希发菜", "NYYY", "three homophones"},
    {"恭喜发财", "恭喜发彩", "NYYY", "homophone 彩/财"},
    {"恭喜发财", "恭喜发", "NNNN", "a syllable missing: 75%"},
    {"恭喜发财", "恭喜发财啊", "NNNY", "a syllable added: 80%"},
    {"恭喜发财", "恭喜花财", "NNNY", "fa/hua: close, not the same"},
    {"恭喜发财", "新年快乐", "NNNN", "another greeting"},
    {"恭喜发财", "恭喜发财恭喜发财", "NNNN", "said twice: 50%"},
    {"恭喜发财", "！！", "NNNN", "nothing but punctuation"},
    {"万事如意", "萬事如意", "NYYY", "traditional 萬"},
    {"万事如意", "万事如一", "NYYY", "homophone 一/意"},
    {"龙年大吉", "龍年大吉", "NYYY", "traditional 龍"},
    {"新春快乐", "新春快樂", "NYYY", "traditional 樂"},
    {"大吉大利", "大鸡大力", "NYYY", "two homophones"},
    {"年年有余", "年年有鱼", "NYYY", "the pun itself"},
    {"步步高升", "步步高声", "NYYY", "homophone 声/升"},
    {"心想事成", "心想事城", "NYYY", "homophone 城/成"},
    {"身体健康", "身体建康", "NYYY", "homophone 建/健"},
    {"一路顺风", "一路顺丰", "NYYY", "homophone 丰/风"},
    {"岁岁平安", "碎碎平安", "NYYY", "homophone 碎/岁"},
    {"平平安安", "平平按按", "NYYY", "homophone 按/安"},
    {"阖家欢乐", "合家欢乐", "NYYY", "homophone 合/阖"},
    {"学习进步", "学习近步", "NYYY", "homophone 近/进"},
    {"工作顺利", "工作顺理", "NYYY", "homophone 理/利"},
    {"欢度春节", "欢度春姐", "NYYY", "homophone 姐/节"},
    {"大展宏图", "大展鸿途", "NYYY", "two homophones"},
    {"马到成功", "马到城功", "NYYY", "homophone 城/成"},
    {"谢谢老板", "谢谢老版", "NYYY", "homophone 版/板"},
    {"银行", "银航", "NYYY", "polyphone 行 read hang"},
    {"银行", "银星", "NYYY", "polyphone 行 read xing: every reading is tried"},
    {"重庆", "崇庆", "NYYY", "polyphone 重 read chong"},
    {"长大", "涨大", "NYYY", "polyphone 长 read zhang"},
    {"长城", "常城", "NYYY", "polyphone 长 read chang"},
    {"音乐", "音月", "NYYY", "polyphone 乐 read yue"},
    {"快乐", "快了", "NYYY", "polyphones 乐 and 了 share le"},
    {"牛奶", "流奶", "NNYY", "confusion n/l"},
    {"红包拿来", "红包拉来", "NNYY", "confusion n/l"},
    {"谢谢老板", "谢谢脑板", "NNYY", "confusion l/n"},
    {"知足常乐", "资足常乐", "NNYY", "confusion zh/z"},
    {"猪年大吉", "组年大吉", "NNYY", "confusion zh/z"},
    {"吃饭", "词饭", "NNYY", "confusion ch/c"},
    {"十全十美", "四全四美", "NNYY", "confusion sh/s"},
    {"平安", "平昂", "NNYY", "confusion an/ang"},
    {"人生", "人身", "NNYY", "confusion eng/en"},
    {"新年快乐", "星年快乐", "NNYY", "confusion in/ing"},
    {"福如东海", "胡如东海", "NNYY", "confusion f/h"},
    {"日进斗金", "立进斗金", "NNYY", "confusion r/l"},
    {"芝麻开门", "芝麻关门", "NNNY", "one unlike syllable of four"},
    {"芝麻开门", "open sesame", "NNNN", "another language"},
    {"发财888", "发财八八八", "NYYY", "digits said as numbers"},
    {"HB2026", "hb 2026", "YYYY", "case and spaces"},
    {"ＨＢ２０２６", "hb2026", "YYYY", "full width"},
    {"Happy New Year", "happy new year!", "YYYY", "case, spaces, punctuation"},
    {"Happy New Year", "happy new yeah", "NNNY", "one letter of twelve"},
  };

  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    for (String[] row : TABLE) {
      for (int m = 0; m < MODES.length; m++) {
        cases.add(
            Arguments.of(MODES[m].code(), row[0], row[1], row[2].charAt(m) == 'Y', row[3], m));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}: {1} / {2} -> {3} ({4})")
  @MethodSource("cases")
  void grabPhrase_opensTheLock_asTheTableSays(
      String mode, String phrase, String attempt, boolean opens, String why, int modeIndex) {
    var lock = PasswordLock.of(PasswordKey.of(phrase), MODES[modeIndex], PINYIN);
    assertThat(lock.opens(PasswordKey.of(attempt), PINYIN))
        .as("%s under %s (%s)", attempt, mode, why)
        .isEqualTo(opens);
  }

  @org.junit.jupiter.api.Test
  void theTable_hasAtLeastFortyPairs_withMatchesAndMisses_inEveryMode() {
    assertThat(TABLE.length).isGreaterThanOrEqualTo(40);
    for (int m = 0; m < MODES.length; m++) {
      int mode = m;
      assertThat(Stream.of(TABLE).map(row -> row[2].charAt(mode)).distinct())
          .as("mode %s", MODES[m].code())
          .containsExactlyInAnyOrder('Y', 'N');
    }
  }
}
