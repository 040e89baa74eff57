/* Appended to the amalgamation (scripts/regen-sqlite.sh): definitions that
** 3.54.1 still references
** from live code when SQLITE_OMIT_ATTACH / SQLITE_OMIT_VACUUM are set
** (sqlite3FindIndex, sqlite3_file_control(SQLITE_FCNTL_RESET_CACHE)). */
#ifdef SQLITE_OMIT_ATTACH
SQLITE_PRIVATE int sqlite3DbIsNamed(sqlite3 *db, int iDb, const char *zName){
  return sqlite3StrICmp(db->aDb[iDb].zDbSName, zName)==0
      || (iDb==0 && sqlite3StrICmp("main", zName)==0);
}
#endif
#ifdef SQLITE_OMIT_VACUUM
SQLITE_PRIVATE void sqlite3PagerClearCache(Pager *pPager){
  if( pPager->tempFile==0 ) pager_reset(pPager);
}
#endif
#ifdef SQLITE_OMIT_ALTERTABLE
/* Only called under IN_RENAME_OBJECT, which is 0 without ALTER TABLE; an
** unoptimised (debug) build, as the browser tests use, still links it. */
SQLITE_PRIVATE void sqlite3RenameTokenRemap(Parse *pParse, const void *pTo, const void *pFrom){
  (void)pParse; (void)pTo; (void)pFrom;
}
#endif
