package hongbao.pinyin;

import com.github.houbb.pinyin.constant.enums.PinyinStyleEnum;
import com.github.houbb.pinyin.util.PinyinHelper;
import hongbao.core.password.PasswordMatch;
import hongbao.core.password.Pronunciation;
import hongbao.core.password.Reading;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.commons.text.similarity.LevenshteinDistance;

/**
 * How a 口令 sounds, with houbb's pinyin library (see docs/pinyin.md for why this one): a Chinese
 * character is read in its phrase's context first (银行 yin hang, 重庆 chong qing, 长大 zhang da), then
 * every other way the character may be read, so a speech recogniser's choice of character for the
 * same sound still matches. Traditional characters read as their simplified forms. A digit reads as
 * itself and as its Chinese name (8 = ba), other characters as themselves.
 *
 * <p>Two phrases are alike under {@link PasswordMatch.Pinyin} when they have as many units and each
 * pair shares a reading. Under {@link PasswordMatch.Fuzzy} the phrases are aligned with an edit
 * distance over units: inserting or dropping a unit costs 1, substituting costs 0 when the units
 * share a reading once the sounds people confuse are folded together (zh/z, ch/c, sh/s, n/l, r/l,
 * h/f; ang/an, eng/en, ing/in, iang/ian, uang/uan), else the smallest Levenshtein distance between
 * their readings divided by the longer reading's length. The similarity is {@code 1 - cost / units
 * of the longer phrase}; the phrase matches at {@code percent / 100} or more.
 *
 * <p>Thread-safe. The library loads its dictionaries on first use (about half a second): call
 * {@link #warmUp} at start.
 */
public final class PinyinPronunciation implements Pronunciation {

  private static final String[][] DIGIT_NAMES = {
    {"ling"},
    {"yi", "yao"},
    {"er", "liang"},
    {"san"},
    {"si"},
    {"wu"},
    {"liu"},
    {"qi"},
    {"ba"},
    {"jiu"}
  };

  /** A character's readings, cached: the library's per-character lookup is the costly part. */
  private final ConcurrentHashMap<Character, List<String>> readingsOfChar =
      new ConcurrentHashMap<>();

  /** Loads the library's dictionaries now rather than on the first grab. */
  public PinyinPronunciation warmUp() {
    read("恭喜发财");
    return this;
  }

  @Override
  public Reading read(String key) {
    var units = new ArrayList<List<String>>();
    int i = 0;
    while (i < key.length() && units.size() < Reading.MAX_UNITS) {
      int codePoint = key.codePointAt(i);
      if (isHan(codePoint)) {
        int end = i;
        while (end < key.length() && isHan(key.codePointAt(end))) {
          end += Character.charCount(key.codePointAt(end));
        }
        readHan(key.substring(i, end), units);
        i = end;
        continue;
      }
      if (codePoint >= '0' && codePoint <= '9') {
        var readings = new ArrayList<String>();
        readings.add(Character.toString(codePoint));
        readings.addAll(List.of(DIGIT_NAMES[codePoint - '0']));
        units.add(readings);
      } else {
        units.add(List.of(Character.toString(codePoint).toLowerCase(Locale.ROOT)));
      }
      i += Character.charCount(codePoint);
    }
    return new Reading(units.subList(0, Math.min(units.size(), Reading.MAX_UNITS)));
  }

  private void readHan(String run, List<List<String>> units) {
    String[] context = PinyinHelper.toPinyin(run, PinyinStyleEnum.NORMAL, " ").trim().split("\\s+");
    boolean aligned = context.length == run.length();
    for (int k = 0; k < run.length(); k++) {
      char c = run.charAt(k);
      Set<String> readings = new LinkedHashSet<>();
      if (aligned) {
        String syllable = syllable(context[k]);
        if (!syllable.isEmpty()) {
          readings.add(syllable);
        }
      }
      readings.addAll(readingsOf(c));
      if (readings.isEmpty()) {
        readings.add(Character.toString(c));
      }
      units.add(
          List.copyOf(readings)
              .subList(0, Math.min(readings.size(), Reading.MAX_READINGS_PER_UNIT)));
    }
  }

  private List<String> readingsOf(char c) {
    return readingsOfChar.computeIfAbsent(
        c,
        key -> {
          Set<String> readings = new LinkedHashSet<>();
          for (String reading : PinyinHelper.toPinyinList(key, PinyinStyleEnum.NORMAL)) {
            String syllable = syllable(reading);
            if (!syllable.isEmpty()) {
              readings.add(syllable);
            }
          }
          return List.copyOf(readings);
        });
  }

  /** Toneless lowercase ASCII: ü is written v, as pinyin keyboards do. */
  private static String syllable(String reading) {
    String lower = reading.toLowerCase(Locale.ROOT).replace('ü', 'v');
    return lower.chars().allMatch(c -> c >= 'a' && c <= 'z') ? lower : "";
  }

  /** Chinese characters (not the CJK punctuation a key has already dropped). */
  private static boolean isHan(int codePoint) {
    return Character.UnicodeScript.of(codePoint) == Character.UnicodeScript.HAN
        && Character.isBmpCodePoint(codePoint);
  }

  @Override
  public boolean alike(Reading phrase, Reading attempt, PasswordMatch match) {
    return switch (match) {
      case PasswordMatch.Exact exact -> false;
      case PasswordMatch.Pinyin pinyin -> sameSounds(phrase, attempt);
      case PasswordMatch.Fuzzy fuzzy -> similarEnough(phrase, attempt, fuzzy.percent());
    };
  }

  private static boolean sameSounds(Reading phrase, Reading attempt) {
    if (phrase.size() != attempt.size()) {
      return false;
    }
    for (int i = 0; i < phrase.size(); i++) {
      if (phrase.units().get(i).stream().noneMatch(attempt.units().get(i)::contains)) {
        return false;
      }
    }
    return true;
  }

  private static boolean similarEnough(Reading phrase, Reading attempt, int percent) {
    int longer = Math.max(phrase.size(), attempt.size());
    if (longer == 0) {
      return true;
    }
    double cost = distance(fold(phrase), fold(attempt));
    // similarity = 1 - cost / longer >= percent / 100, with room for the doubles' rounding
    return 100 * (longer - cost) >= percent * longer - 1e-9;
  }

  /** Edit distance over units, with substitutions weighted by how unlike the sounds are. */
  static double distance(List<List<String>> a, List<List<String>> b) {
    double[] previous = new double[b.size() + 1];
    double[] current = new double[b.size() + 1];
    for (int j = 0; j <= b.size(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.size(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.size(); j++) {
        double substitute = previous[j - 1] + unlike(a.get(i - 1), b.get(j - 1));
        current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
      }
      double[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.size()];
  }

  /** 0 when two units share a (folded) reading, else the closest readings' relative distance. */
  private static double unlike(List<String> a, List<String> b) {
    double best = 1;
    for (String x : a) {
      for (String y : b) {
        if (x.equals(y)) {
          return 0;
        }
        int longest = Math.max(x.length(), y.length());
        best =
            Math.min(best, (double) LevenshteinDistance.getDefaultInstance().apply(x, y) / longest);
      }
    }
    return best;
  }

  private static List<List<String>> fold(Reading reading) {
    var folded = new ArrayList<List<String>>(reading.size());
    for (List<String> unit : reading.units()) {
      folded.add(unit.stream().map(PinyinPronunciation::foldSyllable).distinct().toList());
    }
    return folded;
  }

  /**
   * One spelling for the sounds that are often confused: the initials zh/z, ch/c, sh/s, n/l, r/l,
   * h/f and the nasal finals ang/an, eng/en, ing/in (so iang/ian and uang/uan). An initial is only
   * folded before a final, so a lone letter stays itself.
   */
  static String foldSyllable(String syllable) {
    String s = syllable;
    if (s.length() > 2 && (s.startsWith("zh") || s.startsWith("ch") || s.startsWith("sh"))) {
      s = s.charAt(0) + s.substring(2);
    } else if (s.length() > 1 && (s.charAt(0) == 'n' || s.charAt(0) == 'r') && s.charAt(1) != 'g') {
      s = "l" + s.substring(1);
    } else if (s.length() > 1 && s.charAt(0) == 'h') {
      s = "f" + s.substring(1);
    }
    if (s.length() >= 3 && s.endsWith("ng") && "aei".indexOf(s.charAt(s.length() - 3)) >= 0) {
      s = s.substring(0, s.length() - 1);
    }
    return s;
  }
}
