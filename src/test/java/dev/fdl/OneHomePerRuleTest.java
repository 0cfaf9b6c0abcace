package dev.fdl;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rules that have one home in src/main, read from the sources with comments and
 * strings left out: a new bypass fails here, naming the file and line.
 */
class OneHomePerRuleTest {
    private static final Pattern NOT_CODE = SourceSites.NOT_CODE;
    private static final Pattern COMMENTS = SourceSites.COMMENTS;

    @Test
    void onlyTheStorePackageKnowsWhichStoreClassItHas() throws IOException {
        // a caller asks a store for a capability (ObjectStore.localFiles(), conditionalWritesNeedProbe())
        assertThat(sites(Pattern.compile("instanceof\\s+(?:dev\\.fdl\\.store\\.)?(?:LocalStore|S3Store|HttpStore)\\b")))
                .as("instanceof a store class outside dev.fdl.store")
                .allMatch(s -> s.startsWith("store/"));
    }

    @Test
    void theCatalogCacheIsMadeFromTheEnvironmentInOnePlace() throws IOException {
        assertThat(sites(Pattern.compile("CatalogCache\\s*\\.\\s*fromEnvironment\\s*\\(")))
                .as("calls of CatalogCache.fromEnvironment (the CLI makes the cache once and passes it)")
                .hasSize(1)
                .allMatch(s -> s.startsWith("cli/CommandContext.java:"));
    }

    @Test
    void whetherAWorkingCopyBelongsToARepositoryIsDecidedByWorkingCopyState() throws IOException {
        // WorkingCopy.State.belongsTo / requireBelongsTo: the working copy's recorded id against fdl.json's
        assertThat(sites(Pattern.compile("repositoryId(?:\\(\\))?\\s*\\.\\s*equals\\(|equals\\([^;]*repositoryId\\(\\)")))
                .as("a working copy's repository id compared outside WorkingCopy.State.belongsTo")
                .allMatch(s -> s.startsWith("workingcopy/WorkingCopy.java:"));
    }

    @Test
    void temporaryFileAndRenameAreWrittenOnlyByAtomicFile() throws IOException {
        // LocalStore's writes are the store's commit protocol (its lock, its last-modified rule);
        // DuckDbNativeLibrary runs before fdl starts proper
        Set<String> own = Set.of("util/AtomicFile.java", "store/LocalStore.java", "util/DuckDbNativeLibrary.java");
        assertThat(sites(Pattern.compile("\\bATOMIC_MOVE\\b")))
                .as("ATOMIC_MOVE outside AtomicFile: write through util.AtomicFile")
                .allMatch(s -> own.contains(s.substring(0, s.indexOf(':'))));
    }

    @Test
    void headAndTheSuffixesAreReadByTheRevisionResolverAlone() throws IOException {
        // "HEAD", git's "@" and where suffixes start: RevisionResolver (Revision holds the suffix grammar,
        // RefName the ref-name rule that '@' alone is no name); the CLI asks it (DefaultRef)
        Set<String> own = Set.of("repo/RevisionResolver.java", "repo/Revision.java", "repo/RefName.java");
        assertThat(sites(Pattern.compile("(?:equals|startsWith)\\(\"(?:HEAD|@|@\\{)\"\\)|\"~\\^@\""), COMMENTS))
                .as("HEAD or @ read outside RevisionResolver")
                .allMatch(s -> own.contains(s.substring(0, s.indexOf(':'))));
    }

    @Test
    void duckDbsErrorTextIsCleanedByDuckDbErrorsAlone() throws IOException {
        // the driver's wrapper line and the quoted SQL ("LINE 1: ...") are removed in one place
        assertThat(sites(Pattern.compile("pending query result|\"LINE |\"Error: \""), COMMENTS))
                .as("DuckDB error text cleaned outside engine/DuckDbErrors")
                .allMatch(s -> s.startsWith("ducklake/engine/DuckDbErrors.java:"));
    }

    @Test
    void theDataFolderRulesLiveInDuckLakePaths() throws IOException {
        // remote: DuckLakePaths.isRemote, in every package; Redacted hides a URL's credentials, whatever the URL names
        Set<String> own = Set.of("ducklake/format/DuckLakePaths.java", "util/Redacted.java");
        assertThat(sites(Pattern.compile("\\.contains\\(\"://\"\\)"), COMMENTS))
                .as("contains(\"://\") on a data folder outside DuckLakePaths.isRemote")
                .allMatch(s -> own.contains(SourceSites.file(s)));
        assertThat(sites(Pattern.compile("(?i)data\\w*\\.endsWith\\(\"/\"\\)|while\\s*\\(\\s*\\w+\\.endsWith\\(\"/\"\\)"), COMMENTS))
                .as("a data folder's trailing slash handled outside DuckLakePaths.dataPath")
                .isEmpty();
    }

    @Test
    void duckDbSessionsAreSetToUtcAndAttachedReadOnlyThroughSql() throws IOException {
        assertThat(sites(Pattern.compile("(?i)SET\\s+TimeZone"), COMMENTS))
                .as("SET TimeZone outside Sql.SET_UTC")
                .allMatch(s -> s.startsWith("ducklake/engine/Sql.java:"));
        // a reader's ATTACH 'ducklake:…' takes DuckLakeExtension.readerAttachOptions, which starts with READ_ONLY
        Set<String> own = Set.of("ducklake/engine/Sql.java", "ducklake/engine/DuckLakeExtension.java");
        assertThat(sites(Pattern.compile("\\(READ_ONLY\\)|\"READ_ONLY|OVERRIDE_DATA_PATH true"), COMMENTS))
                .as("a read-only ATTACH or the reader's DuckLake options written outside Sql.attach / DuckLakeExtension")
                .allMatch(s -> own.contains(s.substring(0, s.indexOf(':'))));
    }

    @Test
    void aWorkingCatalogIsCopiedForReadingByCatalogConverterScratchCopy() throws IOException {
        assertThat(sites(Pattern.compile("CatalogKind\\.DUCKDB\\s*,\\s*(?:[\\w.]+\\.)?ProgressListener\\.NONE")))
                .as("a SQLite catalog converted to a DuckDB scratch file outside CatalogConverter.scratchCopy")
                .allMatch(s -> s.startsWith("ducklake/convert/CatalogConverter.java:"));
    }

    @Test
    void aCatalogIsOpenedForReadingByReadableCatalogAlone() throws IOException {
        // the scratch copy of a working catalog, the data mirror of a remote repository and their clean-up
        assertThat(sites(Pattern.compile("\\bscratchCopy\\s*\\(|\\bDataFileMirror\\s*\\.\\s*fetch(?:Files)?\\s*\\(")))
                .as("a catalog opened for reading (scratch copy, data mirror) outside ducklake.read.ReadableCatalog")
                .allMatch(s -> s.startsWith("ducklake/read/ReadableCatalog.java:") || s.startsWith("ducklake/convert/CatalogConverter.java:")
                        || s.startsWith("ducklake/read/DataFileMirror.java:"));
        // what a reader needs of the cache is asked through repo.ReadCache, never by downcasting to the cache class
        assertThat(sites(Pattern.compile("instanceof\\s+(?:dev\\.fdl\\.cache\\.)?CatalogCache\\b"))).as("instanceof CatalogCache").isEmpty();
    }

    @Test
    void gzipAndTheIntegerTypesAreDecidedInOnePlace() throws IOException {
        // an import source is gzipped when ImportFormat.gzipped says so (the demo only picks its own files)
        assertThat(sites(Pattern.compile("endsWith\\(\"\\.gz\"\\)"), COMMENTS))
                .as("a .gz test outside ImportFormat.gzipped")
                .allMatch(s -> s.startsWith("ducklake/load/ImportFormat.java:") || s.startsWith("cli/DemoCommand.java:"));
        assertThat(sites(Pattern.compile("\"UTINYINT\""), COMMENTS))
                .as("a list of integer types outside DuckLakeTypes (INTEGER_TYPES, LONG_INTEGER_TYPES, isInteger)")
                .allMatch(s -> s.startsWith("ducklake/format/DuckLakeTypes.java:"));
    }

    @Test
    void sqliteTableInfoIsAskedThroughSqlAlone() throws IOException {
        assertThat(sites(Pattern.compile("(?i)\\btable_info\\s*\\("), COMMENTS))
                .as("PRAGMA table_info outside Sql.sqliteTableInfo")
                .allMatch(s -> s.startsWith("ducklake/engine/Sql.java:"));
    }

    @Test
    void theDuckDbPoolIsPassedInNotReachedStatically() throws IOException {
        // CommandContext holds the process-wide pool and hands it down; the rest are deep static
        // utilities not yet given one (each listed once per call: a new call fails here too)
        List<String> notYetPassed = List.of("ducklake/engine/DuckDbStorage.java", "ducklake/engine/DuckDbStorage.java",
                "ducklake/engine/Sql.java", "ducklake/format/DuckLakeTypes.java", "ducklake/read/CatalogStat.java");
        List<String> files = sites(Pattern.compile("\\bDuckDbPool\\s*\\.\\s*(?:connect|shared|current)\\s*\\(|\\bSHARED\\b")).stream()
                .map(s -> s.substring(0, s.indexOf(':')))
                .filter(f -> !f.equals("ducklake/engine/DuckDbPool.java"))
                .toList();
        assertThat(files).as("DuckDbPool.connect/shared/SHARED outside CommandContext: take the pool as a constructor or request field")
                .filteredOn(f -> !f.equals("cli/CommandContext.java"))
                .containsExactlyInAnyOrderElementsOf(notYetPassed);
        assertThat(files).filteredOn(f -> f.equals("cli/CommandContext.java")).hasSize(1);
    }

    @Test
    void nothingUnderDucklakeReadsTheEnvironment() throws IOException {
        // FDL_NO_EXTENSION and the like are read by the CLI (CommandContext) and passed in
        assertThat(sites(Pattern.compile("\\bSystem\\s*\\.\\s*getenv\\b")))
                .as("System.getenv under dev/fdl/ducklake")
                .noneMatch(s -> s.startsWith("ducklake/"));
    }

    /**
     * SQL that selects from a DuckLake catalog table: {@code FROM ducklake_x}, {@code FROM main.ducklake_x},
     * {@code FROM " + db + ".ducklake_x}, {@code FROM " + qualifier + "ducklake_x} ({@code DELETE FROM} is a write).
     */
    static final Pattern CATALOG_SELECT = Pattern.compile(
            "(?i)(?<!DELETE )\\bFROM\\s+(?:\"\\s*\\+\\s*[\\w.()]+\\s*\\+\\s*\"\\s*)?\\.?(?:\\w+\\.)?\"?ducklake_");

    @Test
    void catalogRowsAreReadThroughTheMetadataModel() throws IOException {
        // ducklake.catalog (MetadataQueries, its WholeRows and ColumnTypes) reads catalog rows, ducklake.format
        // its own rules' rows; the files below still select their own rows and are not yet moved (none may be added)
        Set<String> notYetMoved = Set.of("ducklake/load/FileRegistration.java", "ducklake/load/sync/SyncAlter.java",
                "ducklake/working/EmptySnapshot.java", "ducklake/working/SnapshotRow.java", "ducklake/read/TableSummary.java",
                "ducklake/merge/CatalogSide.java", "ducklake/merge/ViewMerge.java", "ducklake/rewrite/FormatUpgrade.java",
                "ducklake/rewrite/HistoryTruncation.java");
        assertThat(sites(CATALOG_SELECT, COMMENTS))
                .as("a SELECT from a ducklake_* table outside ducklake.catalog: read catalog rows through MetadataQueries "
                        + "(whole rows: MetadataQueries.wholeRows)")
                .allMatch(s -> s.startsWith("ducklake/catalog/") || s.startsWith("ducklake/format/") || notYetMoved.contains(SourceSites.file(s)));
    }

    @Test
    void theCatalogSelectFinderSeesReadsNotDeletes() {
        String source = """
                class X {
                    String a = "SELECT count(*) FROM main.ducklake_schema WHERE x";
                    String b = "SELECT value FROM " + db + ".ducklake_metadata WHERE key = 'version'";
                    String c = "SELECT rowid FROM " + qualifier + "ducklake_data_file";
                    String d = "DELETE FROM ducklake_table_stats WHERE table_id = ?";
                    String e = "SELECT x FROM ducklake_tag";
                }
                """;
        assertThat(SourceSites.lines(source, CATALOG_SELECT, COMMENTS)).containsExactly(2, 3, 4, 6);
    }

    @Test
    void theSiteFinderSeesCodeNotCommentsOrStrings() {
        String source = """
                class X {
                    // x instanceof LocalStore
                    String s = "instanceof LocalStore";
                    boolean b = store instanceof LocalStore;
                }
                """;
        assertThat(lines(source, Pattern.compile("instanceof\\s+LocalStore"))).containsExactly(4);
    }

    /** {@code path:line} of every match of {@code code} in the code of src/main (comments and strings left out). */
    private static List<String> sites(Pattern code) throws IOException {
        return SourceSites.sites(code, NOT_CODE);
    }

    private static List<String> sites(Pattern code, Pattern blanked) throws IOException {
        return SourceSites.sites(code, blanked);
    }

    private static List<Integer> lines(String source, Pattern code) {
        return SourceSites.lines(source, code, NOT_CODE);
    }
}
