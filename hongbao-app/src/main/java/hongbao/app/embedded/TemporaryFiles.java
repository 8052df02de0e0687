package hongbao.app.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removes what an embedded server left in its temporary folder. */
public final class TemporaryFiles {

  private TemporaryFiles() {}

  public static void deleteTree(Path root) {
    if (root == null || !Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(TemporaryFiles::deleteQuietly);
    } catch (IOException e) {
      // Best effort: a leftover temporary folder is harmless and the OS cleans /tmp.
    }
  }

  private static void deleteQuietly(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      // Best effort, as above.
    }
  }
}
