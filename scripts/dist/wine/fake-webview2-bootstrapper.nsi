; A stand-in for Microsoft's WebView2 bootstrapper, for installer-wine-check.sh: it
; records its command line and registers a runtime version the way the real one does.
; (Go programs cannot stand in: Wine 8 lacks bcryptprimitives.dll, which Go needs.)
Target amd64-unicode
OutFile "${OUTFILE}"
SilentInstall silent
RequestExecutionLevel admin
Section
  SetRegView 64
  WriteRegStr HKLM "SOFTWARE\WOW6432Node\Microsoft\EdgeUpdate\Clients\{F3017226-FE2A-4295-8BDF-00C3A9A7E4C5}" "pv" "123.0.2420.65"
  FileOpen $0 "C:\fake-webview2-bootstrapper.txt" w
  FileWrite $0 $CMDLINE
  FileClose $0
SectionEnd
