#if canImport(Glibc)
import Glibc
#endif

func checkMain(_ arguments: [String]) -> Int32 {
    eprint("gestured check: not implemented yet")
    return 1
}
