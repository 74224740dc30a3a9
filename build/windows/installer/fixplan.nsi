; fixplan's Windows installer, compiled on Linux with makensis (Debian's nsis) by
; scripts/dist/windows.sh. Written for fixplan after Wails' NSIS template
; (pkg/buildassets/build/windows/installer in wails v2.16.0), trimmed to what
; fixplan needs: the app and the CLI in Program Files, a Start menu entry, an
; uninstaller registered in Apps & features, and the WebView2 runtime when it is
; missing.
;
; Defines (makensis -DNAME=VALUE):
;   VERSION      the stamped version, shown to the user (v1.2.3-4-gabc1234)
;   WINVERSION   the same as four numbers (1.2.3.4) for the file's properties
;   APP_EXE      fixplan.exe to install         CLI_EXE  fixplan-cli.exe to install
;   ICON         the .ico of the app            OUTFILE  the installer to write
;   WEBVIEW2_BOOTSTRAPPER (optional) MicrosoftEdgeWebview2Setup.exe to embed; without
;                it the installer downloads the bootstrapper when WebView2 is missing
;   SIGN_CMD     (optional) a command that signs "%1" in place (installer, uninstaller)
;   TARGET_AMD64 (optional) build a 64-bit installer instead of the usual 32-bit one

!ifdef TARGET_AMD64
  Target amd64-unicode ; a 64-bit installer: only to run this script under a 64-bit-only Wine
!else
  Unicode true
!endif
ManifestDPIAware true
SetCompressor /SOLID lzma
RequestExecutionLevel admin

!include "MUI2.nsh"
!include "x64.nsh"
!include "WinVer.nsh"
!include "FileFunc.nsh"
!include "LogicLib.nsh"

!define PRODUCT "fixplan"
!define UNINST_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\fixplan"
; The Evergreen WebView2 Runtime's client id, and Microsoft's link to its bootstrapper.
!define WEBVIEW2_GUID "{F3017226-FE2A-4295-8BDF-00C3A9A7E4C5}"
!define WEBVIEW2_URL "https://go.microsoft.com/fwlink/p/?LinkId=2124703"

!ifdef SIGN_CMD
  !finalize '${SIGN_CMD} "%1"'
  !uninstfinalize '${SIGN_CMD} "%1"'
!endif

Name "${PRODUCT}"
OutFile "${OUTFILE}"
InstallDir "$PROGRAMFILES64\${PRODUCT}"
InstallDirRegKey HKLM "${UNINST_KEY}" "InstallLocation"
ShowInstDetails show
ShowUninstDetails show
BrandingText "${PRODUCT} ${VERSION}"

VIProductVersion "${WINVERSION}"
VIFileVersion "${WINVERSION}"
VIAddVersionKey "ProductName" "${PRODUCT}"
VIAddVersionKey "FileDescription" "${PRODUCT} installer"
VIAddVersionKey "ProductVersion" "${VERSION}"
VIAddVersionKey "FileVersion" "${VERSION}"
VIAddVersionKey "LegalCopyright" "${PRODUCT} developers"

!define MUI_ICON "${ICON}"
!define MUI_UNICON "${ICON}"
!define MUI_ABORTWARNING
!define MUI_FINISHPAGE_NOAUTOCLOSE
!define MUI_FINISHPAGE_RUN "$INSTDIR\fixplan.exe"
!define MUI_FINISHPAGE_RUN_TEXT "Start ${PRODUCT}"
!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

Function .onInit
  ${IfNot} ${AtLeastWin10}
  ${OrIfNot} ${IsNativeAMD64}
    IfSilent +2
      MessageBox MB_OK|MB_ICONSTOP "${PRODUCT} needs 64-bit (x64) Windows 10 or later."
    SetErrorLevel 64
    Quit
  ${EndIf}
  SetRegView 64
  SetShellVarContext all
FunctionEnd

Function un.onInit
  SetRegView 64
  SetShellVarContext all
FunctionEnd

; Sets $0 to the installed WebView2 Runtime version, or "" when there is none.
Function WebView2Version
  ReadRegStr $0 HKLM "SOFTWARE\WOW6432Node\Microsoft\EdgeUpdate\Clients\${WEBVIEW2_GUID}" "pv"
  ${If} $0 == ""
  ${OrIf} $0 == "0.0.0.0"
    ReadRegStr $0 HKCU "Software\Microsoft\EdgeUpdate\Clients\${WEBVIEW2_GUID}" "pv"
  ${EndIf}
  ${If} $0 == "0.0.0.0"
    StrCpy $0 ""
  ${EndIf}
FunctionEnd

; The desktop app draws its window with the WebView2 Runtime (part of Windows 11 and
; of updated Windows 10). When it is missing, Microsoft's Evergreen bootstrapper
; installs it: the one embedded at build time, else one downloaded now.
Function InstallWebView2
  Call WebView2Version
  ${If} $0 != ""
    DetailPrint "WebView2 Runtime $0 is installed."
    Return
  ${EndIf}
  DetailPrint "Installing the Microsoft Edge WebView2 Runtime..."
  InitPluginsDir
  StrCpy $1 "$PLUGINSDIR\MicrosoftEdgeWebview2Setup.exe"
!ifdef WEBVIEW2_BOOTSTRAPPER
  SetOutPath "$PLUGINSDIR"
  File "/oname=MicrosoftEdgeWebview2Setup.exe" "${WEBVIEW2_BOOTSTRAPPER}"
!else
  DetailPrint "Downloading the WebView2 bootstrapper from ${WEBVIEW2_URL}"
  nsExec::ExecToLog `"$SYSDIR\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command "$$ProgressPreference='SilentlyContinue'; [Net.ServicePointManager]::SecurityProtocol = [Net.SecurityProtocolType]::Tls12; Invoke-WebRequest -UseBasicParsing -Uri '${WEBVIEW2_URL}' -OutFile '$1'"`
  Pop $2
  DetailPrint "Download finished with code $2."
!endif
  ${If} ${FileExists} "$1"
    ExecWait `"$1" /silent /install` $2
    DetailPrint "The WebView2 bootstrapper finished with code $2."
  ${EndIf}
  Call WebView2Version
  ${If} $0 == ""
    DetailPrint "The WebView2 Runtime could not be installed; fixplan needs it to open its window."
    IfSilent +2
      MessageBox MB_OK|MB_ICONEXCLAMATION "The Microsoft Edge WebView2 Runtime could not be installed (no Internet connection?).$\r$\n$\r$\nfixplan is installed, but its window needs the runtime: install it from https://developer.microsoft.com/microsoft-edge/webview2/ (Evergreen Bootstrapper), then start fixplan."
  ${Else}
    DetailPrint "WebView2 Runtime $0 is installed."
  ${EndIf}
FunctionEnd

Section "fixplan" SecMain
  SectionIn RO
  SetOutPath "$INSTDIR"
  File "/oname=fixplan.exe" "${APP_EXE}"
  File "/oname=fixplan-cli.exe" "${CLI_EXE}"
  File "/oname=fixplan.ico" "${ICON}"

  CreateShortcut "$SMPROGRAMS\${PRODUCT}.lnk" "$INSTDIR\fixplan.exe" "" "$INSTDIR\fixplan.ico" 0

  WriteUninstaller "$INSTDIR\uninstall.exe"
  WriteRegStr HKLM "${UNINST_KEY}" "DisplayName" "${PRODUCT}"
  WriteRegStr HKLM "${UNINST_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKLM "${UNINST_KEY}" "Publisher" "${PRODUCT} developers"
  WriteRegStr HKLM "${UNINST_KEY}" "DisplayIcon" "$INSTDIR\fixplan.ico"
  WriteRegStr HKLM "${UNINST_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKLM "${UNINST_KEY}" "UninstallString" `"$INSTDIR\uninstall.exe"`
  WriteRegStr HKLM "${UNINST_KEY}" "QuietUninstallString" `"$INSTDIR\uninstall.exe" /S`
  WriteRegDWORD HKLM "${UNINST_KEY}" "NoModify" 1
  WriteRegDWORD HKLM "${UNINST_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  IntFmt $0 "0x%08X" $0
  WriteRegDWORD HKLM "${UNINST_KEY}" "EstimatedSize" "$0"

  ; Last, so that fixplan is installed even when the runtime cannot be (no network).
  Call InstallWebView2
SectionEnd

; Removes exactly what the installer put there. Settings, the API key in the
; Credential Manager and WebView2's data under %APPDATA% stay, as do projects'
; .fixplan folders; the WebView2 Runtime stays (other apps use it).
Section "Uninstall"
  Delete "$SMPROGRAMS\${PRODUCT}.lnk"
  Delete "$INSTDIR\fixplan.exe"
  Delete "$INSTDIR\fixplan-cli.exe"
  Delete "$INSTDIR\fixplan.ico"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  DeleteRegKey HKLM "${UNINST_KEY}"
SectionEnd
