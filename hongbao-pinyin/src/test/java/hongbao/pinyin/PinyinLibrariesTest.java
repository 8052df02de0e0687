package hongbao.pinyin;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.houbb.pinyin.constant.enums.PinyinStyleEnum;
import com.github.promeg.pinyinhelper.Pinyin;
import com.github.promeg.tinypinyin.lexicons.java.cncity.CnCityDict;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import net.sourceforge.pinyin4j.PinyinHelper;
import net.sourceforge.pinyin4j.format.HanyuPinyinCaseType;
import net.sourceforge.pinyin4j.format.HanyuPinyinOutputFormat;
import net.sourceforge.pinyin4j.format.HanyuPinyinToneType;
import net.sourceforge.pinyin4j.format.HanyuPinyinVCharType;
import net.sourceforge.pinyin4j.format.exception.BadHanyuPinyinOutputFormatCombination;
import org.junit.jupiter.api.Test;

/**
 * The comparison in docs/pinyin.md, kept true: what each of the three candidate libraries makes of
 * the same phrases. A phrase's reading is written syllables separated by spaces, toneless.
 */
class PinyinLibrariesTest {

  /** phrase, the right reading, pinyin4j's, TinyPinyin's (no dictionary), houbb's. */
  private static final String[][] PHRASES = {
    {"银行", "yin hang", "yin hang", "yin xing", "yin hang"},
    {"重庆", "chong qing", "chong qing", "zhong qing", "chong qing"},
    {"长大", "zhang da", "zhang da", "zhang da", "zhang da"},
    {"长城", "chang cheng", "zhangcheng", "zhang cheng", "chang cheng"},
    {"行长", "hang zhang", "xingzhang", "xing zhang", "xing zhang"},
    {"音乐", "yin yue", "yin yue", "yin le", "yin yue"},
    {"了解", "liao jie", "liao jie", "le jie", "liao jie"},
    {"还钱", "huan qian", "huan qian", "hai qian", "huan qian"},
    {"睡觉", "shui jiao", "shui jiao", "shui jue", "shui jiao"},
    {"都市", "du shi", "du shi", "dou shi", "du shi"},
    {"朝阳", "chao yang", "zhao yang", "chao yang", "chao yang"},
    {"单于", "chan yu", "chan yu", "dan yu", "chan yu"},
    {"恭喜发财", "gong xi fa cai", "gong xi facai", "gong xi fa cai", "gong xi fa cai"},
    {"恭禧發財", "gong xi fa cai", "gong xi fa cai", "gong xi fa cai", "gong xi fa cai"},
    {"萬事如意", "wan shi ru yi", "wan shi ruyi", "wan shi ru yi", "wan shi ru yi"},
  };

  private static final HanyuPinyinOutputFormat TONELESS = new HanyuPinyinOutputFormat();

  static {
    TONELESS.setToneType(HanyuPinyinToneType.WITHOUT_TONE);
    TONELESS.setVCharType(HanyuPinyinVCharType.WITH_V);
    TONELESS.setCaseType(HanyuPinyinCaseType.LOWERCASE);
  }

  private static String pinyin4j(String phrase) throws BadHanyuPinyinOutputFormatCombination {
    return PinyinHelper.toHanYuPinyinString(phrase, TONELESS, " ", true).trim();
  }

  private static String tiny(String phrase) {
    return Pinyin.toPinyin(phrase, " ").toLowerCase(Locale.ROOT);
  }

  private static String houbb(String phrase) {
    return com.github.houbb.pinyin.util.PinyinHelper.toPinyin(phrase, PinyinStyleEnum.NORMAL, " ");
  }

  @Test
  void eachLibrary_readsThePhrases_asTheComparisonSays() throws Exception {
    int[] right = new int[3];
    for (String[] row : PHRASES) {
      String[] read = {pinyin4j(row[0]), tiny(row[0]), houbb(row[0])};
      for (int library = 0; library < 3; library++) {
        assertThat(read[library])
            .as("library %s on %s", library, row[0])
            .isEqualTo(row[2 + library]);
        if (read[library].equals(row[1])) {
          right[library]++;
        }
      }
    }
    assertThat(right).containsExactly(10, 5, 14);
    // TinyPinyin's one dictionary (Chinese cities) mends 重庆 but not 银行. Last: it is global.
    Pinyin.init(Pinyin.newConfig().with(CnCityDict.getInstance()));
    assertThat(tiny("重庆")).isEqualTo("chong qing");
    assertThat(tiny("银行")).isEqualTo("yin xing");
  }

  @Test
  void everyReadingOfAPolyphone_comesFromPinyin4jAndHoubb_notFromTinyPinyin() throws Exception {
    // (pinyin4j lists a reading once per tone: without tones they repeat.)
    assertThat(new LinkedHashSet<>(List.of(PinyinHelper.toHanyuPinyinStringArray('行', TONELESS))))
        .containsExactly("xing", "hang", "heng");
    assertThat(
            new LinkedHashSet<>(
                com.github.houbb.pinyin.util.PinyinHelper.toPinyinList(
                    '行', PinyinStyleEnum.NORMAL)))
        .containsExactly("xing", "hang", "heng");
    // houbb lists rarer readings too, which makes "every reading tried" more forgiving.
    assertThat(com.github.houbb.pinyin.util.PinyinHelper.toPinyinList('喜', PinyinStyleEnum.NORMAL))
        .contains("xi", "chi");
    assertThat(Arrays.asList(PinyinHelper.toHanyuPinyinStringArray('喜', TONELESS)))
        .containsExactly("xi");
    // TinyPinyin answers one reading per character and has no call for the others.
    assertThat(Pinyin.toPinyin('行')).isEqualTo("XING");
  }
}
